import { useCallback, useEffect, useEffectEvent, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { parseFilterParam, parseGridSearch, parseSortParam, withGridSearch, type GridUrlState, type RowFilter, type RowSort } from '@dash/contracts';
import { useLatestCallback } from './hooks';
import type { SavedGridView } from './saved-view';

/** The history state of the grid's own URL changes: a visit without it restores the filters and sorts. */
const GRID_NAVIGATION = { tableEditorGrid: true } as const;
const isGridNavigation = (state: unknown) => typeof state === 'object' && state !== null && (state as { tableEditorGrid?: unknown }).tableEditorGrid === true;

/** The sorts after a column header's sort menu: the column sorted that way (in its place if already sorted), or unsorted on null. */
export function sortsWithColumn(sorts: readonly RowSort[], column: string, ascending: boolean | null): RowSort[] {
  if (ascending === null) return sorts.filter((s) => s.column !== column);
  return sorts.some((s) => s.column === column) ? sorts.map((s) => (s.column === column ? { column, ascending } : s)) : [...sorts, { column, ascending }];
}

/**
 * The grid's filters, sorts and view (data or definition). They live in the URL; a visit that names
 * none keeps the ones last shown, starting from the table's saved view. `filters` and `sorts` change
 * identity only when their content does: they key the row queries and the grid's columns.
 */
export function useGridSortingFilters(saved: Pick<SavedGridView, 'filters' | 'sorts'>) {
  const location = useLocation();
  const navigate = useNavigate();
  // The filters and sorts last shown, starting from the saved ones.
  const shown = useRef<{ filters: RowFilter[]; sorts: RowSort[] }>({
    filters: (saved.filters ?? []).map(parseFilterParam).filter((f): f is RowFilter => !!f),
    sorts: (saved.sorts ?? []).map(parseSortParam).filter((s): s is RowSort => !!s),
  });
  const parsed = useMemo(() => parseGridSearch(location.search), [location.search]);
  // A visit that was not the grid's own change and names no filters or sorts (the table opened from
  // the list, a bookmark, Back) keeps the ones last shown, so they are neither dropped nor saved empty.
  const restore = !isGridNavigation(location.state) && !parsed.filters.length && !parsed.sorts.length;
  const filtersKey = JSON.stringify(restore ? shown.current.filters : parsed.filters);
  const sortsKey = JSON.stringify(restore ? shown.current.sorts : parsed.sorts);
  // Read back from their JSON: plain data that round-trips exactly.
  const filters = useMemo(() => JSON.parse(filtersKey) as RowFilter[], [filtersKey]);
  const sorts = useMemo(() => JSON.parse(sortsKey) as RowSort[], [sortsKey]);

  const setGridUrl = useLatestCallback((patch: Partial<GridUrlState>, replace?: boolean) =>
    navigate({ pathname: location.pathname, search: withGridSearch(location.search, patch) }, { replace: replace ?? false, state: GRID_NAVIGATION }),
  );
  useEffect(() => {
    shown.current = { filters, sorts };
  }, [filters, sorts]);
  // On each visit, the URL says what is shown.
  const showRestoredInUrl = useEffectEvent(() => {
    if (restore && (filters.length || sorts.length)) setGridUrl({ filters, sorts }, true);
  });
  useEffect(() => showRestoredInUrl(), [location.key]);

  const sortBy = useCallback((column: string, ascending: boolean | null) => setGridUrl({ sorts: sortsWithColumn(sorts, column, ascending) }), [sorts, setGridUrl]);

  return { view: parsed.view, filters, sorts, setGridUrl, sortBy };
}
