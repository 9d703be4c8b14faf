import { useDispatch } from 'react-redux';
import { errorMessage, useToast, type AppDispatch } from '@dash/shell-sdk';
import { Messages } from '@dash/contracts';
import { objectsApi } from '../api/objects';
import { checkNewFolderName, checkRename, INVALID_NAME_TOAST_MS, type NameCheck } from './names';
import { itemKey } from './operations';
import { joinPath, parentPath } from './paths';
import type { ExplorerScope } from './scope';
import { explorerActions as act, type ExplorerItem } from './state';
import { ExplorerTexts } from './texts';
import type { ExplorerColumns } from './use-explorer-columns';

/** Names typed in an editing row: new folders and renames. */
export function useExplorerNames({ target, stateRef, dispatch }: ExplorerScope, { refreshFolder }: Pick<ExplorerColumns, 'refreshFolder'>) {
  const appDispatch = useDispatch<AppDispatch>();
  const toast = useToast();

  /**
   * The accepted name, or null. A rejected name is shown; the row stays editable unless `cancelOnError`
   * (the input lost focus).
   */
  const accept = (check: NameCheck, cancelOnError: boolean): string | null => {
    if (check.kind === 'error') toast('error', check.message, { durationMs: INVALID_NAME_TOAST_MS });
    if (check.kind !== 'error' || cancelOnError) dispatch(act.editingStopped());
    return check.kind === 'ok' ? check.name : null;
  };

  /** Creates the new folder typed in column `columnIndex`. */
  const createFolder = async (columnIndex: number, typed: string, cancelOnError: boolean) => {
    const column = stateRef.current.columns[columnIndex];
    if (!column) return;
    const name = accept(checkNewFolderName(typed, column.items.map((i) => i.name)), cancelOnError);
    if (name === null) return;
    const path = joinPath(column.path, name);
    dispatch(act.folderAdded({ columnIndex, name }));
    dispatch(act.itemBusy({ path, busy: true }));
    try {
      await appDispatch(objectsApi.endpoints.storageCreateFolder.initiate({ ...target, folder: path })).unwrap();
    } catch (error) {
      toast('error', ExplorerTexts.createFolderFailed(name, errorMessage(error)));
    } finally {
      dispatch(act.itemBusy({ path, busy: false }));
    }
    refreshFolder(column.path);
  };

  const rename = async (item: ExplorerItem, typed: string, cancelOnError: boolean) => {
    const name = accept(checkRename(typed, item.name, item.type), cancelOnError);
    if (name === null) return;
    const folder = parentPath(item.path);
    const renamed = { ...item, path: joinPath(folder, name) };
    dispatch(act.itemRenamed({ path: item.path, name }));
    dispatch(act.itemBusy({ path: renamed.path, busy: true }));
    try {
      await appDispatch(objectsApi.endpoints.storageMoveObjects.initiate({ ...target, body: { moves: [{ from: itemKey(item), to: itemKey(renamed) }] } })).unwrap();
      toast('success', Messages.renamed(item.name, name));
    } catch (error) {
      const message = errorMessage(error);
      if (item.type === 'file') toast('error', Messages.renameFileFailed(message));
      else toast('error', Messages.renameFolderFailed(name), { description: message });
    } finally {
      dispatch(act.itemBusy({ path: renamed.path, busy: false }));
    }
    refreshFolder(folder);
  };

  return { createFolder, rename };
}
