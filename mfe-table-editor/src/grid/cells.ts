import { GRID_MIN_COLUMN_WIDTH, Messages, type PgColumn, type PgRelationship, type PgTable, type RowMatch, type RowsPage, type RowValues, type RowWritten } from '@dash/contracts';
import { typeLabel } from '../forms/column-types';

/**
 * What the grid knows about a column and its cells: kinds by type, default widths (spec section 9),
 * how a value is shown and edited, and how typed text becomes the value sent to the service.
 */

export type ColumnKind = 'number' | 'datetime' | 'boolean' | 'enum' | 'json' | 'array' | 'text';

const NUMBER_FORMATS = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid']);
const DATETIME_FORMATS = new Set(['date', 'time', 'timetz', 'timestamp', 'timestamptz', 'interval']);

export function columnKind(column: PgColumn): ColumnKind {
  if (column.data_type === 'ARRAY' || column.format.startsWith('_')) return 'array';
  if (column.enums.length > 0) return 'enum';
  if (column.format === 'bool') return 'boolean';
  if (column.format === 'json' || column.format === 'jsonb') return 'json';
  if (NUMBER_FORMATS.has(column.format)) return 'number';
  if (DATETIME_FORMATS.has(column.format)) return 'datetime';
  return 'text';
}

/**
 * Kinds edited as free text, in a text area that keeps line breaks: text of every type that has no kind
 * of its own (text, varchar, char, citext, domains, xml, …), JSON and arrays.
 */
export function usesTextArea(kind: ColumnKind): boolean {
  return kind === 'text' || kind === 'json' || kind === 'array';
}

const KIND_WIDTH: Record<ColumnKind, number> = { number: 120, datetime: 150, boolean: 120, enum: 150, json: 250, array: 250, text: 250 };
/** About 9 px per character of the header's name and format, plus room for its icons and menu button. */
const HEADER_CHAR_WIDTH = 9;
const HEADER_CHROME_WIDTH = 48;

export function defaultColumnWidth(column: PgColumn): number {
  const header = (column.name.length + typeLabel(column).length) * HEADER_CHAR_WIDTH + HEADER_CHROME_WIDTH;
  return Math.max(GRID_MIN_COLUMN_WIDTH, KIND_WIDTH[columnKind(column)], header);
}

/** The input hint of date and time types (spec section 5). */
export function typeHint(column: Pick<PgColumn, 'format'>): string | undefined {
  if (column.format === 'timestamptz') return Messages.timestamptzHint;
  if (column.format === 'timestamp') return Messages.timestampHint;
  return undefined;
}

/**
 * A json/jsonb cell's JSON value null, in the grid's rows (never in the cached page, which keeps the
 * service's null plus its `jsonNulls` list): not null, so the cell shows it as a value rather than as
 * NULL, and JSON-serialised as null, so it is shown, copied and edited as `null` and written as the
 * JSON text `null` (parseCellInput, toWriteValue) like any other JSON value.
 */
export const JSON_NULL: unknown = Object.freeze({ toJSON: () => null });

/** A page row's values with its JSON-null cells (the reply's `jsonNulls` for that row) as JSON_NULL. */
export function withJsonNulls(values: RowValues, columns: Iterable<string> | undefined): RowValues {
  if (!columns) return values;
  const out = { ...values };
  for (const column of columns) if (out[column] === null) out[column] = JSON_NULL;
  return out;
}

/** Puts a written row into the cached page at `index`: its values, none cut, its JSON nulls marked. */
export function putWrittenRow(page: RowsPage, index: number, written: RowWritten): void {
  page.rows[index] = written.row;
  page.truncated = page.truncated.filter((t) => t.row !== index);
  page.jsonNulls = [...(page.jsonNulls ?? []).filter((t) => t.row !== index), ...(written.jsonNulls ?? []).map((column) => ({ row: index, column }))];
}

/**
 * Puts one cell's value into the cached page, as the service would send it back: a JSON column's
 * written text as its JSON value (a JSON null marked), anything else as it is.
 */
export function putCellValue(page: RowsPage, index: number, column: string, value: unknown, kind: ColumnKind): void {
  const row = page.rows[index];
  if (!row) return;
  let parsed = value;
  if (kind === 'json' && typeof value === 'string') {
    try {
      parsed = JSON.parse(value) as unknown;
    } catch {
      // not JSON text: shown as sent until the service's reply replaces it
    }
  }
  row[column] = parsed;
  const others = (page.jsonNulls ?? []).filter((t) => !(t.row === index && t.column === column));
  page.jsonNulls = parsed === null && value !== null ? [...others, { row: index, column }] : others;
}

/** A row of the current page. `edit` carries the text typed into a cell editor until it is saved. */
export interface GridRow {
  key: string;
  index: number;
  values: RowValues;
  edit?: { column: string; input: string | null };
}

export function primaryKeyNames(table: Pick<PgTable, 'primary_keys'> | undefined): string[] {
  return table?.primary_keys.map((k) => k.name) ?? [];
}

/** The primary-key values that identify a row for update, delete and full-value loads. */
export function rowMatch(values: RowValues, keys: readonly string[]): RowMatch {
  return Object.fromEntries(keys.map((k) => [k, values[k] ?? null]));
}

export function rowKey(values: RowValues, index: number, keys: readonly string[]): string {
  return keys.length ? JSON.stringify(keys.map((k) => values[k] ?? null)) : `#${index}`;
}

/** Foreign keys going out of this table, by source column. */
export function outgoingForeignKeys(table: Pick<PgTable, 'schema' | 'name' | 'relationships'>): Map<string, PgRelationship> {
  const map = new Map<string, PgRelationship>();
  for (const r of table.relationships) {
    if (r.source_schema === table.schema && r.source_table_name === table.name && !map.has(r.source_column_name)) map.set(r.source_column_name, r);
  }
  return map;
}

/** How a cell shows its value; null is shown as NULL by the cell itself. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * The text of a cell as shown and copied. A JSON column's value is shown as JSON, so the string
 * `"str"` keeps its quotes and is not mistaken for other JSON; a cut value is already text.
 */
export function cellText(value: unknown, kind: ColumnKind, truncated = false): string {
  if (value === null || value === undefined) return '';
  return kind === 'json' && !truncated ? JSON.stringify(value) : displayValue(value);
}

/** The text an editor starts from: a JSON column's value as (indented) JSON, whatever its type. */
export function editText(value: unknown, kind: ColumnKind): string {
  if (value === null || value === undefined) return '';
  if (kind === 'json') return JSON.stringify(value, null, 2);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function arrayElement(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) return toPgArrayLiteral(value);
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** `["a", null, ["b"]]` → `{"a",NULL,{"b"}}`: array values travel as text Postgres casts, like others. */
export function toPgArrayLiteral(values: readonly unknown[]): string {
  return `{${values.map(arrayElement).join(',')}}`;
}

/**
 * The value to send for a column, from a value the service returned (undo, row copies): strings are
 * cast by Postgres, JSON columns take their JSON text, arrays go as array literals.
 */
export function toWriteValue(value: unknown, kind: ColumnKind): unknown {
  if (value === null || value === undefined) return null;
  if (kind === 'json') return JSON.stringify(value);
  if (Array.isArray(value)) return toPgArrayLiteral(value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export type ParsedInput = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Typed text → the value sent. Empty text (or an explicit NULL choice, `null`) is NULL. JSON must
 * parse and travels as its (compact) JSON text, which the service parses: sent as a parsed value, a
 * JSON string would be read as JSON text and JSON `null` as SQL NULL. An array may be typed as JSON
 * or as a Postgres array literal.
 */
export function parseCellInput(input: string | null, kind: ColumnKind): ParsedInput {
  if (input === null || input === '') return { ok: true, value: null };
  if (kind === 'json') {
    try {
      return { ok: true, value: JSON.stringify(JSON.parse(input)) };
    } catch {
      return { ok: false, error: Messages.invalidJson };
    }
  }
  if (kind === 'array' && input.trim().startsWith('[')) {
    try {
      const parsed = JSON.parse(input) as unknown;
      if (Array.isArray(parsed)) return { ok: true, value: toPgArrayLiteral(parsed) };
    } catch {
      // not JSON: Postgres reads it as an array literal and says what is wrong
    }
  }
  return { ok: true, value: input };
}

/** Whether two values are the same for the purpose of skipping a no-op write. */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

export interface ColumnAccess {
  editable: boolean;
  /** Why a cell cannot be edited, when the user tries. */
  reason?: string;
}

/** Whether cells of `column` can be edited by this member in this relation (spec section 5). */
export function columnAccess(column: PgColumn, options: { readOnlyRelation: boolean; canWrite: boolean; primaryKeys: readonly string[] }): ColumnAccess {
  if (options.readOnlyRelation || !options.canWrite) return { editable: false };
  if (column.is_encrypted) return { editable: false, reason: Messages.encryptedNotEditable };
  if (options.primaryKeys.length === 0) return { editable: false, reason: Messages.noPrimaryKeyForWrite };
  if (options.primaryKeys.includes(column.name) || !column.is_updatable || column.is_generated || column.identity_generation === 'ALWAYS') {
    return { editable: false };
  }
  return { editable: true };
}
