import { useEffect, useMemo, useRef, useState } from 'react';
import { errorReplyCode, ROW_LOAD_MAX_ATTEMPTS, ROW_LOAD_RETRY_DELAY_MS, UNDEFINED_COLUMN, type Impersonation, type PgTable, type RowFilter, type RowSort } from '@dash/contracts';
import { useEditorRowCountQuery, useEditorRowsQuery, type RowsQueryBody } from '../api/rows';
import { primaryKeyNames, rowKey, withJsonNulls, type GridRow } from './cells';

export interface GridRowsArgs {
  ref: string;
  id: number;
  table: Pick<PgTable, 'primary_keys'> | undefined;
  filters: RowFilter[];
  sorts: RowSort[];
  page: number;
  limit: RowsQueryBody['limit'];
  role: Impersonation | undefined;
  /** Called when the service says a sorted column does not exist (spec section 4). */
  onMissingSortColumn: () => void;
}

/**
 * A page of rows and the count for the grid. A failed page is retried after ROW_LOAD_RETRY_DELAY_MS,
 * ROW_LOAD_MAX_ATTEMPTS attempts in all; an error about a column that does not exist clears the sort
 * (a saved or linked sort on a renamed column) instead.
 */
export function useGridRows({ ref, id, table, filters, sorts, page, limit, role, onMissingSortColumn }: GridRowsArgs) {
  const rowsArg = useMemo(() => ({ ref, id, body: { filters, sorts, page, limit, role } }), [ref, id, filters, sorts, page, limit, role]);
  const rows = useEditorRowsQuery(rowsArg);

  const [exact, setExact] = useState(false);
  const filtersKey = JSON.stringify([filters, role]);
  useEffect(() => setExact(false), [filtersKey]);
  const countArg = useMemo(() => ({ ref, id, body: { filters, role, ...(exact ? { exact: true } : {}) } }), [ref, id, filters, role, exact]);
  const count = useEditorRowCountQuery(countArg);

  // Attempts of the current arguments, by request id.
  const attempts = useRef<{ key: string; requests: Set<string> }>({ key: '', requests: new Set() });
  const [attempt, setAttempt] = useState(0);
  const argsKey = JSON.stringify(rowsArg);
  const refetch = useRef(rows.refetch);
  refetch.current = rows.refetch;
  const missingSort = useRef(onMissingSortColumn);
  missingSort.current = onMissingSortColumn;
  const failedCode = rows.isError ? errorReplyCode(rows.error) : undefined;

  useEffect(() => {
    if (!rows.isError || rows.isFetching || !rows.requestId) return;
    if (attempts.current.key !== argsKey) attempts.current = { key: argsKey, requests: new Set() };
    attempts.current.requests.add(rows.requestId);
    const made = attempts.current.requests.size;
    setAttempt(made);
    if (sorts.length && failedCode === UNDEFINED_COLUMN) {
      missingSort.current();
      return;
    }
    if (made >= ROW_LOAD_MAX_ATTEMPTS) return;
    const timer = setTimeout(() => refetch.current(), ROW_LOAD_RETRY_DELAY_MS);
    return () => clearTimeout(timer);
  }, [rows.isError, rows.isFetching, rows.requestId, argsKey, failedCode, sorts.length]);

  const keys = useMemo(() => primaryKeyNames(table), [table]);
  const gridRows = useMemo<GridRow[]>(() => {
    const jsonNulls = new Map<number, string[]>();
    for (const { row, column } of rows.currentData?.jsonNulls ?? []) jsonNulls.set(row, [...(jsonNulls.get(row) ?? []), column]);
    return (rows.currentData?.rows ?? []).map((values, index) => ({ key: rowKey(values, index, keys), index, values: withJsonNulls(values, jsonNulls.get(index)) }));
  }, [rows.currentData, keys]);
  const truncated = useMemo(() => new Set((rows.currentData?.truncated ?? []).map((t) => `${t.row}:${t.column}`)), [rows.currentData]);

  return {
    rowsArg,
    rows,
    gridRows,
    truncated,
    count,
    requestExactCount: () => setExact(true),
    /** Attempts made for the current arguments when the last one failed; more are coming while below the limit. */
    failedAttempts: rows.isError ? attempt : 0,
  };
}
