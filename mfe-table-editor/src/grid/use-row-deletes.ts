import { errorMessage, useConfirm, useToast } from '@dash/shell-sdk';
import { Messages, plural, type Impersonation, type RowFilter } from '@dash/contracts';
import { useDeleteEditorRowsMutation, useTruncateEditorTableMutation } from '../api/rows';
import { rowMatch, type GridRow } from './cells';
import type { useGridSelection } from './use-grid-selection';

export interface RowDeletesArgs {
  ref: string;
  id: number;
  role: Impersonation | undefined;
  tableName: string;
  filters: RowFilter[];
  /** The rows of the table matching the filters, when counted. */
  count: number | undefined;
  selection: ReturnType<typeof useGridSelection>;
  primaryKeys: readonly string[];
  canWrite: boolean;
}

/**
 * Deleting rows, each after the user confirms: the selected rows, every row matching the filters, the
 * whole table (a truncate, when all rows are selected without filters), or one row from its menu.
 */
export function useRowDeletes({ ref, id, role, tableName, filters, count, selection, primaryKeys, canWrite }: RowDeletesArgs) {
  const toast = useToast();
  const confirm = useConfirm();
  const [deleteRows] = useDeleteEditorRowsMutation();
  const [truncate] = useTruncateEditorTableMutation();
  const { allRows, selectedRows } = selection;

  const deleteReason = (() => {
    if (!canWrite) return Messages.needPermissionsGeneric;
    // A truncate cannot be limited to the rows a role may see.
    if (allRows && !filters.length && role) return Messages.truncateWhileImpersonating;
    if (!allRows && !primaryKeys.length) return Messages.noPrimaryKeyForWrite;
    return undefined;
  })();

  const deleteSelection = async () => {
    const total = count ?? 0;
    try {
      if (allRows && !filters.length) {
        const ok = await confirm({
          title: `Delete all rows of ${tableName}`,
          message: `All ${plural(total, 'row')} of ${tableName} will be removed (the table is truncated). This cannot be undone.`,
          confirmLabel: 'Delete all rows',
          variant: 'danger',
        });
        if (!ok) return;
        await truncate({ ref, id }).unwrap();
        toast('success', `Deleted all rows of ${tableName}`);
      } else if (allRows) {
        const ok = await confirm({
          title: `Delete ${plural(total, 'row')}`,
          message: `Every row matching the filters (${plural(total, 'row')}) will be deleted. This cannot be undone.`,
          confirmLabel: 'Delete rows',
          variant: 'danger',
        });
        if (!ok) return;
        const { deleted } = await deleteRows({ ref, id, body: { filters, role } }).unwrap();
        toast('success', `Deleted ${plural(deleted, 'row')}`);
      } else {
        const ok = await confirm({
          title: `Delete ${plural(selectedRows.length, 'selected row')}`,
          message: `The ${plural(selectedRows.length, 'selected row')} will be deleted. This cannot be undone.`,
          confirmLabel: 'Delete',
          variant: 'danger',
        });
        if (!ok) return;
        const matches = selectedRows.map((r) => rowMatch(r.values, primaryKeys));
        const { deleted } = await deleteRows({ ref, id, body: { matches, role } }).unwrap();
        toast('success', `Deleted ${plural(deleted, 'row')}`);
      }
      selection.clear();
    } catch (error) {
      toast('error', 'Failed to delete rows', { description: errorMessage(error) });
    }
  };

  const deleteRow = async (row: GridRow) => {
    const ok = await confirm({ title: 'Delete this row?', message: 'The row will be deleted. This cannot be undone.', confirmLabel: 'Delete', variant: 'danger' });
    if (!ok) return;
    try {
      await deleteRows({ ref, id, body: { matches: [rowMatch(row.values, primaryKeys)], role } }).unwrap();
      toast('success', 'Deleted 1 row');
      selection.deselect(row.key);
    } catch (error) {
      toast('error', 'Failed to delete row', { description: errorMessage(error) });
    }
  };

  return { deleteReason, deleteSelection, deleteRow };
}
