import { useState } from 'react';
import { useDispatch } from 'react-redux';
import { errorMessage, useToast, type AppDispatch } from '@dash/shell-sdk';
import { Messages, RowConflictMessages, type Impersonation, type PgColumn, type RowMatch, type RowValues } from '@dash/contracts';
import {
  editorRowsApi,
  useInsertEditorRowMutation,
  useLazyEditorFullValueQuery,
  useUpdateEditorRowMutation,
  type RowsPageReply,
} from '../api/rows';
import { columnKind, JSON_NULL, parseCellInput, putCellValue, putWrittenRow, rowMatch, sameValue, toWriteValue, type GridRow } from './cells';
import { basisBody, editBasis, putCurrentRow, rowConflict } from './conflicts';
import { useLatestCallback, useSaveIndicator } from './hooks';
import type { RowSubmitResult } from './RowPanel';

interface LastEdit {
  rowKey: string;
  match: RowMatch;
  column: PgColumn;
  previous: unknown;
  /** The value the edit wrote, as the service returned it: the undo's basis when the row left the page. */
  written: unknown;
}

/** A conflict's toast stays longer: it holds the value the user typed, which was not saved. */
const CONFLICT_TOAST_MS = 15_000;

export interface RowEditsArgs {
  ref: string;
  id: number;
  role: Impersonation | undefined;
  tableName: string;
  /** The cached page's query argument: edits show in that page at once. */
  rowsArg: typeof editorRowsApi.endpoints.editorRows.Types.QueryArg;
  gridRows: readonly GridRow[];
  truncated: ReadonlySet<string>;
  primaryKeys: readonly string[];
  refetchRows: () => void;
}

/**
 * Writes to rows: cell edits (with one undo), the row panel's insert and edit, and the full value of
 * a cut cell. Each shows in the cached page at once; an edit someone else overtook puts their row there.
 */
export function useRowEdits({ ref, id, role, tableName, rowsArg, gridRows, truncated, primaryKeys, refetchRows }: RowEditsArgs) {
  const dispatch = useDispatch<AppDispatch>();
  const toast = useToast();
  const save = useSaveIndicator();
  const [updateRow] = useUpdateEditorRowMutation();
  const [insertRow] = useInsertEditorRowMutation();
  const [fetchFullValue] = useLazyEditorFullValueQuery();
  const [lastEdit, setLastEdit] = useState<LastEdit | undefined>();

  const patchPage = (recipe: (page: RowsPageReply) => void) => dispatch(editorRowsApi.util.updateQueryData('editorRows', rowsArg, recipe));

  /**
   * Writes one cell, shown at once and put back as it was if the service refuses. The cell's value as
   * shown is the basis (`expected`; `basis` when the row is no longer on the page): if someone else
   * changed it since, nothing is written and the cell shows their value. Resolves to the written row.
   */
  const writeCell = async (target: { rowKey: string; match: RowMatch }, column: PgColumn, value: unknown, basis?: unknown): Promise<RowValues | undefined> => {
    const index = gridRows.findIndex((r) => r.key === target.rowKey);
    const shown = gridRows[index];
    const expected = shown ? editBasis(shown.values, [column.name], (name) => truncated.has(`${shown.index}:${name}`)) : { [column.name]: basis };
    const patch = index >= 0 ? patchPage((draft) => putCellValue(draft, index, column.name, value, columnKind(column))) : undefined;
    try {
      const reply = await save.track(() => updateRow({ ref, id, body: { match: target.match, values: { [column.name]: value }, ...basisBody(expected), role } }).unwrap());
      if (index >= 0) patchPage((draft) => putWrittenRow(draft, index, reply));
      return reply.row;
    } catch (error) {
      patch?.undo();
      const current = rowConflict(error);
      if (current) {
        if (index >= 0) patchPage((draft) => putCurrentRow(draft, index, current));
        const typed = value === null ? 'NULL' : typeof value === 'string' ? value : JSON.stringify(value);
        toast('error', RowConflictMessages.title, {
          description: RowConflictMessages.cellNotSaved(column.name, typed.length > 200 ? `${typed.slice(0, 200)}…` : typed),
          durationMs: CONFLICT_TOAST_MS,
        });
      } else toast('error', 'Failed to update row', { description: errorMessage(error) });
      return undefined;
    }
  };

  const commitCell = useLatestCallback((row: GridRow, column: PgColumn, input: string | null) => {
    const kind = columnKind(column);
    const parsed = parseCellInput(input, kind);
    if (!parsed.ok) {
      toast('error', parsed.error);
      return;
    }
    const previous = toWriteValue(row.values[column.name], kind);
    if (sameValue(parsed.value, previous)) return;
    const target = { rowKey: row.key, match: rowMatch(row.values, primaryKeys) };
    void writeCell(target, column, parsed.value).then((written) => written && setLastEdit({ ...target, column, previous, written: written[column.name] }));
  });

  const undo = useLatestCallback(() => {
    if (!lastEdit) return;
    setLastEdit(undefined);
    void writeCell(lastEdit, lastEdit.column, lastEdit.previous, lastEdit.written);
  });

  /** The whole value of a cut cell, also put in the page in place of the cut text. */
  const fullValue = async (row: GridRow, column: string): Promise<unknown> => {
    if (!primaryKeys.length) throw new Error(Messages.noPrimaryKeyForValue);
    const { value, jsonNull } = await fetchFullValue({ ref, id, body: { match: rowMatch(row.values, primaryKeys), column, role } }).unwrap();
    patchPage((draft) => {
      if (draft.rows[row.index]) draft.rows[row.index][column] = value;
      draft.truncated = draft.truncated.filter((t) => !(t.row === row.index && t.column === column));
      if (jsonNull) draft.jsonNulls = [...(draft.jsonNulls ?? []), { row: row.index, column }];
    });
    return jsonNull ? JSON_NULL : value;
  };

  const loadFullValue = useLatestCallback(async (row: GridRow, column: string) => {
    if (!primaryKeys.length) {
      toast('error', Messages.noPrimaryKeyForValue);
      return;
    }
    try {
      await fullValue(row, column);
    } catch (error) {
      toast('error', 'Failed to load the full value', { description: errorMessage(error) });
    }
  });

  /** Saves the row panel; an edit refused because someone else changed the row puts their row in the grid and returns it. */
  const submitRow = async (mode: 'insert' | 'edit', values: RowValues, row?: GridRow, expected?: RowValues): Promise<RowSubmitResult> => {
    try {
      if (mode === 'insert') {
        await save.track(() => insertRow({ ref, id, body: { values, role } }).unwrap());
        toast('success', `Inserted a row into ${tableName}`);
      } else if (row) {
        await save.track(() => updateRow({ ref, id, body: { match: rowMatch(row.values, primaryKeys), values, ...basisBody(expected), role } }).unwrap());
        refetchRows();
      }
      return true;
    } catch (error) {
      const current = mode === 'edit' && row ? rowConflict(error) : undefined;
      if (current) {
        const index = gridRows.findIndex((r) => r.key === row!.key);
        if (index >= 0) patchPage((draft) => putCurrentRow(draft, index, current));
        return current;
      }
      toast('error', mode === 'insert' ? 'Failed to insert row' : 'Failed to update row', { description: errorMessage(error) });
      return false;
    }
  };

  return { saveState: save.state, lastEdit, commitCell, undo, fullValue, loadFullValue, submitRow };
}
