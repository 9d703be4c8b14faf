import { createContext, useContext, useReducer, useState, type ReactNode } from 'react';
import { usePermission, useProjectRef } from '@dash/shell-sdk';
import { Permission, type Bucket } from '@dash/contracts';
import { useLatestRef, type ExplorerScope } from './scope';
import { explorerReducer, initialExplorerState, type ExplorerItem } from './state';
import { useExplorerColumns } from './use-explorer-columns';
import { useExplorerDownloads } from './use-explorer-downloads';
import { useExplorerMoves } from './use-explorer-moves';
import { useExplorerNames } from './use-explorer-names';
import { useExplorerRemoval } from './use-explorer-removal';
import { useExplorerUploads } from './use-explorer-uploads';

/** The dialogs the explorer opens; every item of one dialog is in the same folder. */
export type ExplorerDialog =
  | { kind: 'delete'; items: ExplorerItem[] }
  | { kind: 'move'; items: ExplorerItem[] }
  | { kind: 'expiry'; item: ExplorerItem };

/**
 * Everything the explorer of one bucket does: its state (a reducer local to the explorer), the open
 * columns with their listings, and the file operations with their toasts. Components read it through
 * `useExplorer()`.
 */
function useExplorerController(bucket: Bucket) {
  const ref = useProjectRef();
  const permission = usePermission(Permission.StorageAdminWrite);
  const [state, dispatch] = useReducer(explorerReducer, bucket.name, initialExplorerState);
  const [dialog, setDialog] = useState<ExplorerDialog | null>(null);
  const stateRef = useLatestRef(state);
  const scope: ExplorerScope = { bucket, target: { ref, bucketId: bucket.id }, stateRef, dispatch };

  const columns = useExplorerColumns(scope);
  const uploads = useExplorerUploads(scope, { canUpload: permission.can, refreshFolder: columns.refreshFolder });
  const names = useExplorerNames(scope, columns);
  const removal = useExplorerRemoval(scope, columns);
  const moves = useExplorerMoves(scope, columns);
  const downloads = useExplorerDownloads(scope);

  return {
    ref,
    bucket,
    state,
    dispatch,
    preferences: columns.preferences,
    canWrite: permission.can,
    /** While the permission loads, write buttons are disabled without a reason. */
    permissionLoading: permission.isLoading,
    search: columns.search,
    setSearch: columns.setSearch,
    dialog,
    setDialog,
    fileInputRef: uploads.fileInputRef,
    actions: {
      fetchColumn: columns.fetchColumn,
      refetchAll: columns.refetchAll,
      loadMore: columns.loadMore,
      openFolder: columns.openFolder,
      goToPath: columns.goToPath,
      closeColumnsAfter: columns.closeColumnsAfter,
      openPreview: columns.openPreview,
      setView: columns.setView,
      setSort: columns.setSort,
      createFolder: names.createFolder,
      rename: names.rename,
      remove: removal.remove,
      move: moves.move,
      downloadFile: downloads.downloadFile,
      downloadFolder: downloads.downloadFolder,
      downloadSelection: downloads.downloadSelection,
      copyUrl: downloads.copyUrl,
      copyPath: downloads.copyPath,
      chooseFiles: uploads.chooseFiles,
      onFilesChosen: uploads.onFilesChosen,
      upload: uploads.upload,
    },
  };
}

export type ExplorerController = ReturnType<typeof useExplorerController>;

const ExplorerContext = createContext<ExplorerController | null>(null);

export function ExplorerProvider({ bucket, children }: { bucket: Bucket; children: ReactNode }) {
  const controller = useExplorerController(bucket);
  return <ExplorerContext.Provider value={controller}>{children}</ExplorerContext.Provider>;
}

export function useExplorer(): ExplorerController {
  const controller = useContext(ExplorerContext);
  if (!controller) throw new Error('useExplorer is used outside the storage explorer');
  return controller;
}

/**
 * Props for a control that needs the storage write permission: disabled without it, with the spec's
 * text as the reason (no reason while the permission loads).
 */
export function useWriteGate() {
  const { canWrite, permissionLoading } = useExplorer();
  return (reason: string) => ({ disabled: !canWrite, disabledReason: canWrite || permissionLoading ? undefined : reason });
}
