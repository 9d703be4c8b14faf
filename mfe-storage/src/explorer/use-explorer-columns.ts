import { useEffect, useEffectEvent, useState } from 'react';
import { useDispatch } from 'react-redux';
import { errorMessage, useDebouncedValue, useToast, type AppDispatch } from '@dash/shell-sdk';
import { Messages, STORAGE_LIST_PAGE_SIZE, STORAGE_SEARCH_DEBOUNCE_MS, type StorageItem } from '@dash/contracts';
import { objectsApi } from '../api/objects';
import { listingRequests } from './listing-requests';
import { firstColumnUnder } from './operations';
import { joinPath, splitPath } from './paths';
import { useExplorerPreferences, type ExplorerPreferences } from './preferences';
import { useLatestRef, type ExplorerScope } from './scope';
import { explorerActions as act, type ExplorerItem, type ExplorerState } from './state';

/**
 * The open columns: their listings (one call in flight per folder), the search in the last one, the
 * view and sort they are shown in, and the navigation that opens and closes them.
 */
export function useExplorerColumns({ bucket, target, stateRef, dispatch }: ExplorerScope) {
  const appDispatch = useDispatch<AppDispatch>();
  const toast = useToast();
  const [preferences, updatePreferences] = useExplorerPreferences(target.ref);
  const preferencesRef = useLatestRef(preferences);
  const [search, setSearch] = useState({ open: false, text: '' });
  const debouncedSearch = useDebouncedValue(search.text, STORAGE_SEARCH_DEBOUNCE_MS);
  const [requests] = useState(listingRequests);

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
    const settle = requests.start(path, () => request.abort());
    return request.unwrap().then(
      (entries) => (settle() ? entries : null),
      (error: unknown) => {
        if (settle()) throw error;
        return null;
      },
    );
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
    return () => requests.abortAll();
  }, [requests]);

  // The search applies to the current (last) folder, once typing has paused.
  useEffect(() => searchLastFolder(debouncedSearch), [debouncedSearch]);

  /** Keeps the listings of the columns up to `columnIndex`, aborting those of the columns after it. */
  const keepListingsTo = (columnIndex: number) => {
    const kept = stateRef.current.columns.slice(0, columnIndex + 1);
    requests.abortExcept((path) => kept.some((c) => c.path === path));
    return kept;
  };

  const openFolder = (columnIndex: number, name: string) => {
    const parent = stateRef.current.columns[columnIndex];
    if (!parent) return;
    const kept = keepListingsTo(columnIndex);
    dispatch(act.folderOpened({ columnIndex, name }));
    endSearch(kept);
    void fetchColumn(joinPath(parent.path, name), name);
  };

  const goToPath = (typed: string) => {
    const folders = splitPath(typed);
    requests.abortExcept((path) => path === '');
    dispatch(act.pathOpened({ folders }));
    endSearch(stateRef.current.columns.slice(0, 1));
    let path = '';
    for (const name of folders) {
      path = joinPath(path, name);
      void fetchColumn(path, name);
    }
  };

  const closeColumnsAfter = (columnIndex: number) => {
    keepListingsTo(columnIndex);
    dispatch(act.columnsClosedAfter({ columnIndex }));
  };

  const openPreview = (columnIndex: number, item: ExplorerItem) => {
    if (item.isCorrupted) return;
    keepListingsTo(columnIndex);
    dispatch(act.previewOpened({ columnIndex, path: item.path }));
  };

  /** After `items` left their folder (deleted or moved): their columns, the selection and their preview close. */
  const itemsGone = (items: ExplorerItem[]) => {
    const at = firstColumnUnder(stateRef.current.columns, items);
    if (at > 0) closeColumnsAfter(at - 1);
    dispatch(act.selectionCleared());
    if (items.some((i) => i.path === stateRef.current.preview)) dispatch(act.previewClosed());
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

  return {
    preferences,
    search,
    setSearch,
    fetchColumn,
    refetchAll,
    refreshFolder,
    loadMore,
    openFolder,
    goToPath,
    closeColumnsAfter,
    openPreview,
    itemsGone,
    setView,
    setSort,
  };
}

export type ExplorerColumns = ReturnType<typeof useExplorerColumns>;
