import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { EMPTY_FOLDER_PLACEHOLDER, STORAGE_CORRUPTED_AFTER_MS, STORAGE_LIST_PAGE_SIZE, type StorageItem } from '@dash/contracts';
import { joinPath, parentPath } from './paths';

export type ItemType = 'file' | 'folder';

/** A folder or file as the explorer shows it. */
export interface ExplorerItem {
  name: string;
  /** Full path in the bucket. */
  path: string;
  type: ItemType;
  /** null for a folder. */
  id: string | null;
  size: number | null;
  mimetype: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  lastAccessedAt: string | null;
  /** A file without metadata whose upload may still be running: shown as loading. */
  isPending: boolean;
  /** A file without metadata for 15 minutes or more: its upload never finished. */
  isCorrupted: boolean;
}

/** One opened folder; the bucket's root is the first. */
export interface ExplorerColumn {
  /** '' for the bucket's root. */
  path: string;
  name: string;
  status: 'loading' | 'ready' | 'failed';
  items: ExplorerItem[];
  /** Entries read from the service so far (hidden placeholder included): the next page's offset. */
  fetched: number;
  hasMoreItems: boolean;
  isLoadingMoreItems: boolean;
  /** The search text this listing was read with. */
  search: string;
  error: string | null;
}

export type Editing = { kind: 'new-folder'; columnIndex: number } | { kind: 'rename'; path: string };

/** Selected files, all in one column; `anchor` is where a shift-click range starts. */
export interface Selection {
  columnIndex: number;
  names: string[];
  anchor: string | null;
}

export interface UploadEntry {
  id: string;
  name: string;
  loaded: number;
  total: number;
  status: 'uploading' | 'done' | 'failed';
}

export interface ExplorerState {
  columns: ExplorerColumn[];
  selection: Selection | null;
  /** Path of the file in the preview panel. */
  preview: string | null;
  editing: Editing | null;
  /** Items being created or renamed: shown as loading and not clickable. */
  busy: string[];
  uploads: UploadEntry[];
  /** Other running operations (downloads), for the "do not close the browser" notice. */
  activities: { id: string; label: string }[];
}

function newColumn(path: string, name: string): ExplorerColumn {
  return { path, name, status: 'loading', items: [], fetched: 0, hasMoreItems: false, isLoadingMoreItems: false, search: '', error: null };
}

export function initialExplorerState(bucketName: string): ExplorerState {
  return { columns: [newColumn('', bucketName)], selection: null, preview: null, editing: null, busy: [], uploads: [], activities: [] };
}

/** A listing entry as an explorer item; `now` decides whether a file without metadata is still loading or corrupted. */
export function toExplorerItem(entry: StorageItem, folder: string, now: number): ExplorerItem {
  const type: ItemType = entry.id === null ? 'folder' : 'file';
  const missingMetadata = type === 'file' && entry.metadata === null;
  const age = entry.created_at ? now - Date.parse(entry.created_at) : Number.POSITIVE_INFINITY;
  const isCorrupted = missingMetadata && age >= STORAGE_CORRUPTED_AFTER_MS;
  return {
    name: entry.name,
    path: joinPath(folder, entry.name),
    type,
    id: entry.id,
    size: entry.metadata?.size ?? null,
    mimetype: entry.metadata?.mimetype ?? null,
    createdAt: entry.created_at,
    updatedAt: entry.updated_at,
    lastAccessedAt: entry.last_accessed_at,
    isPending: missingMetadata && !isCorrupted,
    isCorrupted,
  };
}

/** Folders first, each group in the service's order (the chosen sort). */
function foldersFirst(items: ExplorerItem[]): ExplorerItem[] {
  return [...items.filter((i) => i.type === 'folder'), ...items.filter((i) => i.type === 'file')];
}

const columnAt = (state: ExplorerState, path: string) => state.columns.find((c) => c.path === path);

/** Keeps the first `count` columns; the preview, selection and editing row of later ones go with them. */
function keepColumns(state: ExplorerState, count: number) {
  state.columns = state.columns.slice(0, count);
  if (state.selection && state.selection.columnIndex >= count) state.selection = null;
  if (state.editing?.kind === 'new-folder' && state.editing.columnIndex >= count) state.editing = null;
  if (state.preview !== null && !state.columns.some((c) => c.path === parentPath(state.preview!))) state.preview = null;
}

export const explorerSlice = createSlice({
  name: 'storageExplorer',
  initialState: initialExplorerState(''),
  reducers: {
    /** A folder of column `columnIndex` opened: later columns close, preview and selection clear. */
    folderOpened(state, { payload }: PayloadAction<{ columnIndex: number; name: string }>) {
      const parent = state.columns[payload.columnIndex];
      if (!parent) return;
      keepColumns(state, payload.columnIndex + 1);
      state.columns.push(newColumn(joinPath(parent.path, payload.name), payload.name));
      state.preview = null;
      state.selection = null;
    },
    /** A typed path opened: the root and one column per folder. */
    pathOpened(state, { payload }: PayloadAction<{ folders: string[] }>) {
      keepColumns(state, 1);
      let path = '';
      for (const name of payload.folders) {
        path = joinPath(path, name);
        state.columns.push(newColumn(path, name));
      }
      state.preview = null;
      state.selection = null;
    },
    /** Empty column space or a breadcrumb clicked: later columns, the preview and the selection close. */
    columnsClosedAfter(state, { payload }: PayloadAction<{ columnIndex: number }>) {
      keepColumns(state, payload.columnIndex + 1);
      state.preview = null;
      state.selection = null;
    },
    listingStarted(state, { payload }: PayloadAction<{ path: string; search: string }>) {
      const column = columnAt(state, payload.path);
      if (!column) return;
      column.status = 'loading';
      column.search = payload.search;
      column.error = null;
      column.isLoadingMoreItems = false;
    },
    moreListingStarted(state, { payload }: PayloadAction<{ path: string }>) {
      const column = columnAt(state, payload.path);
      if (column) column.isLoadingMoreItems = true;
    },
    /** A page of entries: the first replaces the column's items, a further one (`append`) adds to them. */
    listingLoaded(state, { payload }: PayloadAction<{ path: string; entries: StorageItem[]; now: number; append: boolean }>) {
      const column = columnAt(state, payload.path);
      if (!column) return;
      const visible = payload.entries.filter((e) => e.name !== EMPTY_FOLDER_PLACEHOLDER).map((e) => toExplorerItem(e, column.path, payload.now));
      const previous = payload.append ? column.items : [];
      const known = new Set(previous.map((i) => i.name));
      column.items = foldersFirst([...previous, ...visible.filter((i) => !known.has(i.name))]);
      column.fetched = (payload.append ? column.fetched : 0) + payload.entries.length;
      column.hasMoreItems = payload.entries.length === STORAGE_LIST_PAGE_SIZE;
      column.isLoadingMoreItems = false;
      column.status = 'ready';
      column.error = null;

      const names = new Set(column.items.map((i) => i.name));
      const index = state.columns.indexOf(column);
      if (state.selection?.columnIndex === index) {
        state.selection.names = state.selection.names.filter((n) => names.has(n));
        if (state.selection.names.length === 0) state.selection = null;
      }
      if (state.preview !== null && parentPath(state.preview) === column.path && !column.items.some((i) => i.path === state.preview)) {
        state.preview = null;
      }
    },
    listingFailed(state, { payload }: PayloadAction<{ path: string; message: string }>) {
      const column = columnAt(state, payload.path);
      if (!column) return;
      column.status = 'failed';
      column.error = payload.message;
      column.isLoadingMoreItems = false;
    },
    moreListingFailed(state, { payload }: PayloadAction<{ path: string }>) {
      const column = columnAt(state, payload.path);
      if (column) column.isLoadingMoreItems = false;
    },
    /** A file clicked: its preview opens, columns after its own close, the selection clears. */
    previewOpened(state, { payload }: PayloadAction<{ columnIndex: number; path: string }>) {
      keepColumns(state, payload.columnIndex + 1);
      state.preview = payload.path;
      state.selection = null;
    },
    previewClosed(state) {
      state.preview = null;
    },
    /** A file's checkbox: toggles it, or with shift adds the range from the last one clicked. Folders are not selectable. */
    itemToggled(state, { payload }: PayloadAction<{ columnIndex: number; name: string; shift: boolean }>) {
      const column = state.columns[payload.columnIndex];
      if (!column) return;
      const files = column.items.filter((i) => i.type === 'file').map((i) => i.name);
      if (!files.includes(payload.name)) return;
      const selection = state.selection?.columnIndex === payload.columnIndex ? state.selection : null;
      if (!selection) {
        state.selection = { columnIndex: payload.columnIndex, names: [payload.name], anchor: payload.name };
        return;
      }
      const anchorAt = selection.anchor === null ? -1 : files.indexOf(selection.anchor);
      if (payload.shift && anchorAt >= 0) {
        const at = files.indexOf(payload.name);
        const range = files.slice(Math.min(anchorAt, at), Math.max(anchorAt, at) + 1);
        selection.names = files.filter((n) => selection.names.includes(n) || range.includes(n));
      } else if (selection.names.includes(payload.name)) {
        selection.names = selection.names.filter((n) => n !== payload.name);
      } else {
        selection.names = files.filter((n) => selection.names.includes(n) || n === payload.name);
      }
      selection.anchor = payload.name;
      if (selection.names.length === 0) state.selection = null;
    },
    /** Select-all of a column: every file of it, or none when all are already selected. */
    allToggled(state, { payload }: PayloadAction<{ columnIndex: number }>) {
      const column = state.columns[payload.columnIndex];
      if (!column) return;
      const files = column.items.filter((i) => i.type === 'file').map((i) => i.name);
      const selected = state.selection?.columnIndex === payload.columnIndex ? state.selection.names : [];
      state.selection =
        files.length === 0 || files.every((n) => selected.includes(n)) ? null : { columnIndex: payload.columnIndex, names: files, anchor: null };
    },
    selectionCleared(state) {
      state.selection = null;
    },
    newFolderStarted(state, { payload }: PayloadAction<{ columnIndex: number }>) {
      if (state.columns[payload.columnIndex]) state.editing = { kind: 'new-folder', columnIndex: payload.columnIndex };
    },
    renameStarted(state, { payload }: PayloadAction<{ path: string }>) {
      state.editing = { kind: 'rename', path: payload.path };
    },
    editingStopped(state) {
      state.editing = null;
    },
    /** A folder just created, shown (as loading) before the listing is read again. */
    folderAdded(state, { payload }: PayloadAction<{ columnIndex: number; name: string }>) {
      const column = state.columns[payload.columnIndex];
      if (!column || column.items.some((i) => i.name === payload.name)) return;
      const folder: ExplorerItem = {
        name: payload.name,
        path: joinPath(column.path, payload.name),
        type: 'folder',
        id: null,
        size: null,
        mimetype: null,
        createdAt: null,
        updatedAt: null,
        lastAccessedAt: null,
        isPending: false,
        isCorrupted: false,
      };
      const folders = column.items.filter((i) => i.type === 'folder').length;
      column.items.splice(folders, 0, folder);
    },
    /** An item renamed in place (before the listing is read again); a renamed open folder closes its columns. */
    itemRenamed(state, { payload }: PayloadAction<{ path: string; name: string }>) {
      const index = state.columns.findIndex((c) => c.path === parentPath(payload.path));
      const column = state.columns[index];
      const item = column?.items.find((i) => i.path === payload.path);
      if (!column || !item) return;
      const oldName = item.name;
      item.name = payload.name;
      item.path = joinPath(column.path, payload.name);
      if (state.preview === payload.path) state.preview = item.path;
      if (state.selection?.columnIndex === index) state.selection.names = state.selection.names.map((n) => (n === oldName ? payload.name : n));
      if (item.type === 'folder' && state.columns[index + 1]?.path === payload.path) keepColumns(state, index + 1);
    },
    itemBusy(state, { payload }: PayloadAction<{ path: string; busy: boolean }>) {
      state.busy = state.busy.filter((p) => p !== payload.path);
      if (payload.busy) state.busy.push(payload.path);
    },
    uploadsQueued(state, { payload }: PayloadAction<{ id: string; name: string; total: number }[]>) {
      state.uploads.push(...payload.map((u) => ({ ...u, loaded: 0, status: 'uploading' as const })));
    },
    uploadProgressed(state, { payload }: PayloadAction<{ id: string; loaded: number }>) {
      const upload = state.uploads.find((u) => u.id === payload.id);
      if (upload) upload.loaded = Math.min(payload.loaded, upload.total);
    },
    uploadSettled(state, { payload }: PayloadAction<{ id: string; ok: boolean }>) {
      const upload = state.uploads.find((u) => u.id === payload.id);
      if (!upload) return;
      upload.status = payload.ok ? 'done' : 'failed';
      if (payload.ok) upload.loaded = upload.total;
    },
    uploadsCleared(state, { payload }: PayloadAction<{ ids: string[] }>) {
      state.uploads = state.uploads.filter((u) => !payload.ids.includes(u.id));
    },
    activityStarted(state, { payload }: PayloadAction<{ id: string; label: string }>) {
      state.activities.push(payload);
    },
    activityEnded(state, { payload }: PayloadAction<{ id: string }>) {
      state.activities = state.activities.filter((a) => a.id !== payload.id);
    },
  },
});

export const explorerActions = explorerSlice.actions;
export const explorerReducer = explorerSlice.reducer;

/** The items of the selection, in column order. */
export function selectedItems(state: ExplorerState): ExplorerItem[] {
  const { selection } = state;
  if (!selection) return [];
  return state.columns[selection.columnIndex]?.items.filter((i) => selection.names.includes(i.name)) ?? [];
}

/** The previewed file and its column, while it is listed. */
export function previewItem(state: ExplorerState): { item: ExplorerItem; columnIndex: number } | null {
  if (state.preview === null) return null;
  const columnIndex = state.columns.findIndex((c) => c.path === parentPath(state.preview!));
  const item = state.columns[columnIndex]?.items.find((i) => i.path === state.preview);
  return item ? { item, columnIndex } : null;
}

/** What a row shows: the inline name input, a spinner, or the item. */
export function itemStatus(state: ExplorerState, item: ExplorerItem): 'editing' | 'loading' | 'ready' {
  if (state.editing?.kind === 'rename' && state.editing.path === item.path) return 'editing';
  if (item.isPending || state.busy.includes(item.path)) return 'loading';
  return 'ready';
}

/** Upload progress over all files, 0 to 100. */
export function overallProgress(uploads: readonly UploadEntry[]): number {
  const total = uploads.reduce((sum, u) => sum + u.total, 0);
  if (total === 0) return uploads.length && uploads.every((u) => u.status !== 'uploading') ? 100 : 0;
  return Math.round((uploads.reduce((sum, u) => sum + u.loaded, 0) / total) * 100);
}
