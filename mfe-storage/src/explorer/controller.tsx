import { createContext, useContext, useEffect, useEffectEvent, useLayoutEffect, useReducer, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useDispatch } from 'react-redux';
import { nanoid } from '@reduxjs/toolkit';
import { errorMessage, useDebouncedValue, usePermission, useProjectRef, useToast, type AppDispatch } from '@dash/shell-sdk';
import {
  Messages,
  Permission,
  SELECTION_ZIP_NAME,
  SIGNED_URL_PRESETS,
  STORAGE_LIST_PAGE_SIZE,
  STORAGE_SEARCH_DEBOUNCE_MS,
  STORAGE_UPLOAD_CONCURRENCY,
  type Bucket,
  type StorageItem,
} from '@dash/contracts';
import { downloadObject, objectsApi, uploadFile, zipObjects, type BucketArg } from '../api/objects';
import { useStorageConfigQuery } from '../api/storage-config';
import { absoluteUrl, copyText, saveBlob } from './browser';
import { checkNewFolderName, checkRename } from './names';
import { folderKey, joinPath, parentPath, splitPath } from './paths';
import { useExplorerPreferences, type ExplorerPreferences } from './preferences';
import { explorerActions as act, explorerReducer, initialExplorerState, selectedItems, type ExplorerItem, type ExplorerState } from './state';
import { ExplorerTexts } from './texts';
import { limitLabel, planUpload, runWithConcurrency, type UploadSource } from './upload-plan';

/** The dialogs the explorer opens; every item of one dialog is in the same folder. */
export type ExplorerDialog =
  | { kind: 'delete'; items: ExplorerItem[] }
  | { kind: 'move'; items: ExplorerItem[] }
  | { kind: 'expiry'; item: ExplorerItem };

/** How long a toast about a rejected name stays (spec section 8). */
const INVALID_NAME_TOAST_MS = 6_000;
const SIZE_LIMIT_TOAST_MS = 8_000;
/** The most paths one remove call takes (the route's limit). */
const REMOVE_BATCH = 1_000;

const itemKey = (item: ExplorerItem) => (item.type === 'folder' ? folderKey(item.path) : item.path);

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size));
  return out;
}

/**
 * Everything the explorer of one bucket does: its state (a reducer local to the explorer), the listing
 * calls with their aborts, and the file operations with their toasts. Components read it through
 * `useExplorer()`.
 */
function useExplorerController(bucket: Bucket) {
  const ref = useProjectRef();
  const appDispatch = useDispatch<AppDispatch>();
  const toast = useToast();
  const permission = usePermission(Permission.StorageAdminWrite);
  const [preferences, updatePreferences] = useExplorerPreferences(ref);
  const { data: storageConfig } = useStorageConfigQuery({ ref });
  const [state, dispatch] = useReducer(explorerReducer, bucket.name, initialExplorerState);
  const [dialog, setDialog] = useState<ExplorerDialog | null>(null);
  const [search, setSearch] = useState({ open: false, text: '' });
  const debouncedSearch = useDebouncedValue(search.text, STORAGE_SEARCH_DEBOUNCE_MS);

  // Async work reads the latest state and preferences, not those of the render that started it.
  const stateRef = useRef<ExplorerState>(state);
  const preferencesRef = useRef<ExplorerPreferences>(preferences);
  useLayoutEffect(() => {
    stateRef.current = state;
    preferencesRef.current = preferences;
  });

  const target: BucketArg = { ref, bucketId: bucket.id };
  const fileInputRef = useRef<HTMLInputElement>(null);
  const uploadColumn = useRef<number | null>(null);

  // ------------------------------------------------------------------ listings
  /** In-flight listing per folder path; a newer call for the same folder, or closing it, aborts the older. */
  const requests = useRef(new Map<string, { id: number; abort: () => void }>());
  const sequence = useRef(0);

  /** One page of a folder; resolves to null when the call was aborted or superseded (those stay silent). */
  const listPage = (path: string, offset: number, searchText: string): Promise<StorageItem[] | null> => {
    const { sortBy, sortByOrder } = preferencesRef.current;
    const request = appDispatch(
      objectsApi.endpoints.storageListObjects.initiate(
        {
          ...target,
          body: { path, options: { limit: STORAGE_LIST_PAGE_SIZE, offset, sortBy: { column: sortBy, order: sortByOrder }, ...(searchText ? { search: searchText } : {}) } },
        },
        { subscribe: false, forceRefetch: true },
      ),
    );
    requests.current.get(path)?.abort();
    sequence.current += 1;
    const id = sequence.current;
    requests.current.set(path, { id, abort: () => request.abort() });
    const settle = () => {
      if (requests.current.get(path)?.id !== id) return false;
      requests.current.delete(path);
      return true;
    };
    return request.unwrap().then(
      (entries) => (settle() ? entries : null),
      (error: unknown) => {
        if (settle()) throw error;
        return null;
      },
    );
  };

  const abortListings = (keep: (path: string) => boolean) => {
    for (const [path, request] of requests.current) {
      if (keep(path)) continue;
      request.abort();
      requests.current.delete(path);
    }
  };

  /** Reads a folder's first page. Resolves to the failure's message (already shown unless `quiet`), or null. */
  const fetchColumn = async (path: string, name: string, searchText = '', quiet = false): Promise<string | null> => {
    const page = listPage(path, 0, searchText);
    dispatch(act.listingStarted({ path, search: searchText }));
    try {
      const loaded = await page;
      if (loaded) dispatch(act.listingLoaded({ path, entries: loaded, now: Date.now(), append: false }));
      return null;
    } catch (error) {
      const message = errorMessage(error);
      dispatch(act.listingFailed({ path, message }));
      if (!quiet) toast('error', Messages.listFolderFailed(name, message));
      return message;
    }
  };

  const refetchAll = async () => {
    const failures = await Promise.all(stateRef.current.columns.map((c) => fetchColumn(c.path, c.name, c.search, true)));
    const failure = failures.find((f) => f !== null);
    if (failure) toast('error', Messages.listFoldersFailed(failure));
  };

  /** Reads a folder again, if it is still open. */
  const refreshFolder = (path: string) => {
    const column = stateRef.current.columns.find((c) => c.path === path);
    if (column) void fetchColumn(column.path, column.name, column.search);
  };

  const loadMore = async (path: string) => {
    const column = stateRef.current.columns.find((c) => c.path === path);
    if (!column || !column.hasMoreItems || column.isLoadingMoreItems) return;
    const page = listPage(path, column.fetched, column.search);
    dispatch(act.moreListingStarted({ path }));
    try {
      const loaded = await page;
      if (loaded) dispatch(act.listingLoaded({ path, entries: loaded, now: Date.now(), append: true }));
    } catch (error) {
      dispatch(act.moreListingFailed({ path }));
      toast('error', Messages.listMoreFailed(errorMessage(error)));
    }
  };

  /** Navigation ends a search: the box closes and a searched folder that stays open is read in full again. */
  const endSearch = (kept: ExplorerState['columns']) => {
    setSearch({ open: false, text: '' });
    for (const column of kept) if (column.search) void fetchColumn(column.path, column.name, '');
  };

  // Effect events: the effects below run when the bucket opens and when the search settles, reading the
  // latest state, not whenever the functions they call are made anew.
  const openBucket = useEffectEvent(() => void fetchColumn('', bucket.name));
  const searchLastFolder = useEffectEvent((text: string) => {
    const last = stateRef.current.columns.at(-1);
    if (last && last.search !== text) void fetchColumn(last.path, last.name, text);
  });

  useEffect(() => {
    openBucket();
    const inFlight = requests.current;
    return () => {
      for (const request of inFlight.values()) request.abort();
      inFlight.clear();
    };
  }, []);

  // The search applies to the current (last) folder, once typing has paused.
  useEffect(() => searchLastFolder(debouncedSearch), [debouncedSearch]);

  // ------------------------------------------------------------------ navigation
  const openFolder = (columnIndex: number, name: string) => {
    const kept = stateRef.current.columns.slice(0, columnIndex + 1);
    const parent = kept[columnIndex];
    if (!parent) return;
    abortListings((path) => kept.some((c) => c.path === path));
    dispatch(act.folderOpened({ columnIndex, name }));
    endSearch(kept);
    void fetchColumn(joinPath(parent.path, name), name);
  };

  const goToPath = (typed: string) => {
    const folders = splitPath(typed);
    abortListings((path) => path === '');
    dispatch(act.pathOpened({ folders }));
    endSearch(stateRef.current.columns.slice(0, 1));
    let path = '';
    for (const name of folders) {
      path = joinPath(path, name);
      void fetchColumn(path, name);
    }
  };

  const closeColumnsAfter = (columnIndex: number) => {
    const kept = stateRef.current.columns.slice(0, columnIndex + 1);
    abortListings((path) => kept.some((c) => c.path === path));
    dispatch(act.columnsClosedAfter({ columnIndex }));
  };

  const openPreview = (columnIndex: number, item: ExplorerItem) => {
    if (item.isCorrupted) return;
    const kept = stateRef.current.columns.slice(0, columnIndex + 1);
    abortListings((path) => kept.some((c) => c.path === path));
    dispatch(act.previewOpened({ columnIndex, path: item.path }));
  };

  const setView = (view: ExplorerPreferences['view']) => {
    dispatch(act.previewClosed());
    updatePreferences({ view });
  };

  /** A new sort closes the preview and reads every open folder again in that order. */
  const setSort = (patch: Partial<Pick<ExplorerPreferences, 'sortBy' | 'sortByOrder'>>) => {
    dispatch(act.previewClosed());
    updatePreferences(patch);
    preferencesRef.current = { ...preferencesRef.current, ...patch };
    void refetchAll();
  };

  // ------------------------------------------------------------------ folders and renames
  /**
   * Creates the new folder typed in column `columnIndex`. A rejected name is shown; the row stays
   * editable unless `cancelOnError` (the input lost focus).
   */
  const createFolder = async (columnIndex: number, typed: string, cancelOnError: boolean) => {
    const column = stateRef.current.columns[columnIndex];
    if (!column) return;
    const check = checkNewFolderName(typed, column.items.map((i) => i.name));
    if (check.kind === 'error') toast('error', check.message, { durationMs: INVALID_NAME_TOAST_MS });
    if (check.kind === 'cancel' || (check.kind === 'error' && cancelOnError)) dispatch(act.editingStopped());
    if (check.kind !== 'ok') return;
    dispatch(act.editingStopped());
    const path = joinPath(column.path, check.name);
    dispatch(act.folderAdded({ columnIndex, name: check.name }));
    dispatch(act.itemBusy({ path, busy: true }));
    try {
      await appDispatch(objectsApi.endpoints.storageCreateFolder.initiate({ ...target, folder: path })).unwrap();
    } catch (error) {
      toast('error', ExplorerTexts.createFolderFailed(check.name, errorMessage(error)));
    } finally {
      dispatch(act.itemBusy({ path, busy: false }));
    }
    refreshFolder(column.path);
  };

  const rename = async (item: ExplorerItem, typed: string, cancelOnError: boolean) => {
    const check = checkRename(typed, item.name, item.type);
    if (check.kind === 'error') toast('error', check.message, { durationMs: INVALID_NAME_TOAST_MS });
    if (check.kind === 'cancel' || (check.kind === 'error' && cancelOnError)) dispatch(act.editingStopped());
    if (check.kind !== 'ok') return;
    dispatch(act.editingStopped());
    const folder = parentPath(item.path);
    const renamed = { ...item, path: joinPath(folder, check.name) };
    dispatch(act.itemRenamed({ path: item.path, name: check.name }));
    dispatch(act.itemBusy({ path: renamed.path, busy: true }));
    try {
      await appDispatch(objectsApi.endpoints.storageMoveObjects.initiate({ ...target, body: { moves: [{ from: itemKey(item), to: itemKey(renamed) }] } })).unwrap();
      toast('success', Messages.renamed(item.name, check.name));
    } catch (error) {
      const message = errorMessage(error);
      if (item.type === 'file') toast('error', Messages.renameFileFailed(message));
      else toast('error', Messages.renameFolderFailed(check.name), { description: message });
    } finally {
      dispatch(act.itemBusy({ path: renamed.path, busy: false }));
    }
    refreshFolder(folder);
  };

  // ------------------------------------------------------------------ delete and move
  /** Runs `work` with a line in the operations panel, which asks not to close the browser meanwhile. */
  const withActivity = async <T,>(label: string, work: () => Promise<T>): Promise<T> => {
    const id = nanoid();
    dispatch(act.activityStarted({ id, label }));
    try {
      return await work();
    } finally {
      dispatch(act.activityEnded({ id }));
    }
  };

  /** Closes the columns of folders that `items` removed from where they were. */
  const closeColumnsUnder = (items: ExplorerItem[]) => {
    const gone = items.filter((i) => i.type === 'folder').map((i) => i.path);
    const at = stateRef.current.columns.findIndex((c) => gone.some((g) => c.path === g || c.path.startsWith(`${g}/`)));
    if (at > 0) closeColumnsAfter(at - 1);
  };

  const remove = async (items: ExplorerItem[]) => {
    const [first] = items;
    if (!first) return;
    const folder = parentPath(first.path);
    const label = items.length === 1 ? first.name : `${items.length} items`;
    try {
      await withActivity(`Deleting ${label}`, async () => {
        for (const paths of chunks(items.map(itemKey), REMOVE_BATCH)) {
          await appDispatch(objectsApi.endpoints.storageRemoveObjects.initiate({ ...target, body: { paths } })).unwrap();
        }
      });
    } catch (error) {
      toast('error', ExplorerTexts.deleteFailed(label, errorMessage(error)));
      refreshFolder(folder);
      return;
    }
    toast('success', items.length === 1 ? Messages.deletedItem(first.name) : Messages.deletedFiles(items.length));
    closeColumnsUnder(items);
    dispatch(act.selectionCleared());
    if (items.some((i) => i.path === stateRef.current.preview)) dispatch(act.previewClosed());
    refreshFolder(folder);
  };

  /** Moves `items` into the typed folder ('' or "/" is the root). Resolves true when they moved. */
  const move = async (items: ExplorerItem[], targetFolder: string): Promise<boolean> => {
    const moves = items
      .map((item) => ({ from: itemKey(item), to: itemKey({ ...item, path: joinPath(targetFolder, item.name) }) }))
      .filter((m) => m.from !== m.to);
    if (moves.length === 0) return true;
    try {
      await withActivity(`Moving ${items.length === 1 ? items[0]!.name : `${items.length} items`}`, () =>
        appDispatch(objectsApi.endpoints.storageMoveObjects.initiate({ ...target, body: { moves } })).unwrap(),
      );
    } catch (error) {
      toast('error', Messages.moveFailed, { description: errorMessage(error) });
      return false;
    }
    toast('success', Messages.moved(items.length, targetFolder));
    closeColumnsUnder(items);
    dispatch(act.selectionCleared());
    if (items.some((i) => i.path === stateRef.current.preview)) dispatch(act.previewClosed());
    void refetchAll();
    return true;
  };

  // ------------------------------------------------------------------ downloads and links
  const downloadFile = async (item: ExplorerItem) => {
    try {
      const blob = await withActivity(`Downloading ${item.name}`, () => downloadObject({ ...target, path: item.path }));
      saveBlob(blob, item.name);
    } catch (error) {
      toast('error', Messages.downloadFailed(item.name), { description: errorMessage(error) });
    }
  };

  /** A folder downloads as `{folder}.zip`, its entries under the folder's name. */
  const downloadFolder = async (item: ExplorerItem) => {
    const name = `${item.name}.zip`;
    const root = parentPath(item.path);
    try {
      const blob = await withActivity(`Downloading ${name}`, () => zipObjects({ ...target, body: { paths: [folderKey(item.path)], ...(root ? { root } : {}), name } }));
      saveBlob(blob, name);
    } catch (error) {
      toast('error', Messages.downloadFolderFailed(item.name), { description: errorMessage(error) });
    }
  };

  /** One selected file downloads as itself; several as one zip. */
  const downloadSelection = async () => {
    const items = selectedItems(stateRef.current);
    const [first] = items;
    if (!first) return;
    if (items.length === 1) return downloadFile(first);
    const root = parentPath(first.path);
    try {
      const blob = await withActivity(`Downloading ${SELECTION_ZIP_NAME}`, () =>
        zipObjects({ ...target, body: { paths: items.map((i) => i.path), ...(root ? { root } : {}), name: SELECTION_ZIP_NAME } }),
      );
      saveBlob(blob, SELECTION_ZIP_NAME);
    } catch (error) {
      toast('error', Messages.downloadFailed(SELECTION_ZIP_NAME), { description: errorMessage(error) });
    }
  };

  /** Copies a file's URL: the public URL in a public bucket, else a URL signed for `expiresIn` seconds. */
  const copyUrl = async (item: ExplorerItem, expiresIn: number = SIGNED_URL_PRESETS.week) => {
    try {
      const url = bucket.public
        ? (await appDispatch(objectsApi.endpoints.storagePublicUrl.initiate({ ...target, path: item.path })).unwrap()).publicUrl
        : (await appDispatch(objectsApi.endpoints.storageSignUrl.initiate({ ...target, path: item.path, expiresIn })).unwrap()).signedUrl;
      await copyText(absoluteUrl(url));
      toast('success', Messages.copiedUrl(item.name));
    } catch (error) {
      toast('error', ExplorerTexts.getUrlFailed(item.name, errorMessage(error)));
    }
  };

  const copyPath = async (item: ExplorerItem) => {
    try {
      await copyText(item.path);
      toast('success', Messages.copiedPath(item.name));
    } catch (error) {
      toast('error', errorMessage(error));
    }
  };

  // ------------------------------------------------------------------ uploads
  /** Opens the file picker; the files go to column `columnIndex` (the current folder by default). */
  const chooseFiles = (columnIndex?: number) => {
    uploadColumn.current = columnIndex ?? stateRef.current.columns.length - 1;
    fileInputRef.current?.click();
  };

  const upload = async (sources: UploadSource[], columnIndex: number) => {
    const column = stateRef.current.columns[columnIndex];
    if (!column || sources.length === 0) return;
    if (!permission.can) {
      toast('error', Messages.needPermissionsUpload);
      return;
    }
    const limit = storageConfig?.fileSizeLimit;
    const plan = planUpload(sources, { limit, existingNames: column.items.map((i) => i.name) });
    if (plan.skipped.length) toast('info', ExplorerTexts.uploadSkipped(plan.skipped.length), { durationMs: INVALID_NAME_TOAST_MS });
    if (plan.tooLarge.length && limit !== undefined) {
      toast('error', Messages.uploadTooLarge(plan.tooLarge.length, limitLabel(limit)), { description: Messages.uploadLimitHint, durationMs: SIZE_LIMIT_TOAST_MS });
    }
    if (plan.uploads.length === 0) return;

    const entries = plan.uploads.map((u) => ({ id: nanoid(), name: u.path, total: u.file.size }));
    dispatch(act.uploadsQueued(entries));
    const results = await runWithConcurrency(plan.uploads, STORAGE_UPLOAD_CONCURRENCY, async (u, index) => {
      const { id } = entries[index]!;
      // Progress is shown by whole percents: a render per XHR event would be wasted on a large batch.
      let shown = -1;
      const onProgress = (loaded: number) => {
        const percent = Math.floor((loaded * 100) / Math.max(u.file.size, 1));
        if (percent === shown) return;
        shown = percent;
        dispatch(act.uploadProgressed({ id, loaded }));
      };
      try {
        await uploadFile({ ...target, path: joinPath(column.path, u.path), file: u.file, onProgress });
        dispatch(act.uploadSettled({ id, ok: true }));
      } catch (error) {
        dispatch(act.uploadSettled({ id, ok: false }));
        throw error;
      }
    });

    const failures = results.flatMap((r, index) => (r.status === 'rejected' ? [{ name: plan.uploads[index]!.path, message: errorMessage(r.reason) }] : []));
    const done = results.length - failures.length;
    if (done > 0) toast('success', Messages.uploaded(done, results.length));
    if (failures.length === 1) toast('error', Messages.uploadFileFailed(failures[0]!.name, failures[0]!.message));
    if (failures.length > 1) toast('error', Messages.uploadCountFailed(failures.length), { description: failures.map((f) => `${f.name}: ${f.message}`).join('\n') });
    dispatch(act.uploadsCleared({ ids: entries.map((e) => e.id) }));
    refreshFolder(column.path);
  };

  const onFilesChosen = (files: FileList | null) => {
    const columnIndex = uploadColumn.current ?? stateRef.current.columns.length - 1;
    const sources = Array.from(files ?? []).map((file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
    void upload(sources, columnIndex);
  };

  return {
    ref,
    bucket,
    state,
    dispatch,
    preferences,
    canWrite: permission.can,
    /** While the permission loads, write buttons are disabled without a reason. */
    permissionLoading: permission.isLoading,
    search,
    setSearch,
    dialog,
    setDialog,
    fileInputRef: fileInputRef as RefObject<HTMLInputElement | null>,
    actions: {
      fetchColumn,
      refetchAll,
      loadMore,
      openFolder,
      goToPath,
      closeColumnsAfter,
      openPreview,
      setView,
      setSort,
      createFolder,
      rename,
      remove,
      move,
      downloadFile,
      downloadFolder,
      downloadSelection,
      copyUrl,
      copyPath,
      chooseFiles,
      onFilesChosen,
      upload,
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
