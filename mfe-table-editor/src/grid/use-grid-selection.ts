import { useCallback, useEffect, useState } from 'react';
import { useConfirm } from '@dash/shell-sdk';
import type { GridRow } from './cells';

/**
 * The rows selected on the page, or every row of the table (or matching the filters) when `allRows`.
 * Another set of rows (`rowSetKey`: other filters, another role) starts with nothing selected.
 */
export function useGridSelection(gridRows: readonly GridRow[], rowSetKey: string) {
  const confirm = useConfirm();
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [allRows, setAllRows] = useState(false);
  const clear = useCallback(() => {
    setSelected(new Set());
    setAllRows(false);
  }, []);
  useEffect(clear, [rowSetKey, clear]);

  // Keys stay selected across a refresh; only the rows still on the page count.
  const selectedRows = gridRows.filter((r) => selected.has(r.key));
  const hasSelection = allRows || selectedRows.length > 0;

  /** The grid's checkboxes choose rows of this page, so they end a selection of all rows. */
  const select = useCallback((keys: Set<string>) => {
    setSelected(keys);
    setAllRows(false);
  }, []);
  const selectAllRows = useCallback(() => setAllRows(true), []);
  const deselect = useCallback((key: string) => setSelected((keys) => new Set([...keys].filter((k) => k !== key))), []);

  /** Asks before a page change drops the selection; clears it when the user agrees. */
  const confirmClear = async (): Promise<boolean> => {
    const ok = await confirm({
      title: 'Clear the selection?',
      message: 'Changing the page clears the rows you selected.',
      confirmLabel: 'Change page',
    });
    if (ok) clear();
    return ok;
  };

  return { selected, allRows, selectedRows, hasSelection, select, selectAllRows, deselect, clear, confirmClear };
}
