import { useEffect, useState } from 'react';
import type { RowsQueryBody } from '../api/rows';
import { usePageSize } from './saved-view';
import { useGridRows, type GridRowsArgs } from './use-grid-rows';

/**
 * The page of rows the grid shows (useGridRows), with its paging: the page size is a preference of
 * this browser; another set of rows (`rowSetKey`: other filters, another role) starts at page 1, and
 * a page past the last one (rows deleted since) falls back to the last.
 */
export function usePagedGridRows({ rowSetKey, ...args }: Omit<GridRowsArgs, 'page' | 'limit'> & { rowSetKey: string }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = usePageSize();
  useEffect(() => setPage(1), [rowSetKey]);

  const rows = useGridRows({ ...args, page, limit: pageSize as RowsQueryBody['limit'] });
  const countValue = rows.count.currentData?.count;
  const lastPage = Math.max(1, Math.ceil((countValue ?? 0) / pageSize));
  useEffect(() => {
    if (countValue !== undefined && page > lastPage) setPage(lastPage);
  }, [countValue, lastPage, page]);

  return { ...rows, countValue, page, setPage, pageSize, setPageSize };
}
