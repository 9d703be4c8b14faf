import { errorReplyCode, errorReplyCurrent, ROW_CHANGED, type ErrorReply, type RowsPage, type RowUpdate, type RowValues } from '@dash/contracts';
import { JSON_NULL, putWrittenRow } from './cells';

/*
 * Concurrent editors: every update names the values it was based on (`expected`); the service answers
 * a 409 (ROW_CHANGED) with the row as it is now when someone else changed it since, and writes nothing.
 */

export type CurrentRow = NonNullable<ErrorReply['current']>;

/** A ROW_CHANGED refusal's current row; undefined for any other failure. */
export function rowConflict(error: unknown): CurrentRow | undefined {
  return errorReplyCode(error) === ROW_CHANGED ? errorReplyCurrent(error) : undefined;
}

/**
 * The basis of an edit: the row's values as the page holds them, without the cut ones (a cut text is no
 * basis: it never equals the full value). A cell edit names only its column.
 */
export function editBasis(values: RowValues, columns: Iterable<string>, isCut: (column: string) => boolean): RowValues {
  const basis: RowValues = {};
  for (const column of columns) if (Object.hasOwn(values, column) && !isCut(column)) basis[column] = values[column];
  return basis;
}

/** An update's basis as the body carries it: `expected`, and which of its nulls are the JSON value null. */
export function basisBody(expected: RowValues | undefined): Pick<RowUpdate, 'expected' | 'expectedJsonNulls'> {
  if (!expected) return {};
  const jsonNulls = Object.keys(expected).filter((column) => expected[column] === JSON_NULL);
  return { expected, ...(jsonNulls.length ? { expectedJsonNulls: jsonNulls } : {}) };
}

/** Puts the conflict's current row into the cached page at `index`: its values, cut cells and JSON nulls. */
export function putCurrentRow(page: RowsPage, index: number, current: CurrentRow): void {
  putWrittenRow(page, index, { row: current.row, jsonNulls: current.jsonNulls });
  page.truncated = [...page.truncated, ...current.truncated.map((column) => ({ row: index, column }))];
}
