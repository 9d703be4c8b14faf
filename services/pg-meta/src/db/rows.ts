import pg from 'pg';
import {
  EXACT_COUNT_THRESHOLD,
  ROW_CHANGED,
  RowConflictMessages,
  TABLE_CELL_MAX_CHARS,
  type Impersonation,
  type RowCount,
  type RowFilter,
  type RowsPage,
  type RowSort,
} from '@dash/contracts';
import { HttpError, notFound, type ProjectPools } from '@dash/service-kit';
import {
  countRowsStatement,
  deleteRowsStatement,
  estimateRowsStatement,
  fullValueStatement,
  insertRowStatement,
  lockRowStatement,
  selectRowsStatement,
  truncateTableStatement,
  updateRowStatement,
  type PageColumn,
} from '../sql/rows/statements';
import { MAX_OID, tableMetaQuery, toTableMeta, type TableMeta, type TableMetaRow } from '../sql/rows/table';
import { withSession, type SessionOptions } from './impersonation';
import { editorTypes, toJsonValue } from './values';

type Row = Record<string, unknown>;

const TIMESTAMPTZ = 1184;
const TIMESTAMPTZ_ARRAY = 1185;
/** `_text`, whose parser splits an array literal into strings. */
const TEXT_ARRAY = 1009 as number as (typeof pg.types.builtins)[keyof typeof pg.types.builtins];
const JSON_TYPES = new Set<number>([pg.types.builtins.JSON, pg.types.builtins.JSONB]);

/**
 * A json/jsonb cell holding the JSON value `null`, as the row parsers give it: JSON.parse would make it
 * JS null, the same as SQL NULL (which never reaches a parser). The replies send it as null and list it
 * in `jsonNulls` (see RowsPage in the contracts).
 */
const JSON_NULL = Symbol('JSON null');
const parseJsonCell = (text: string): unknown => (text.trim() === 'null' ? JSON_NULL : JSON.parse(text));
/** A parsed value as JSON (see toJsonValue), JSON null as null. */
const cellJson = (value: unknown): unknown => (value === JSON_NULL ? null : toJsonValue(value));

/** A written row as the replies send it, with its JSON-null columns listed when there are any. */
function toWrittenRow(row: Row): { row: Row; jsonNulls?: string[] } {
  const out: Row = {};
  const jsonNulls: string[] = [];
  for (const [name, value] of Object.entries(row)) {
    if (value === JSON_NULL) jsonNulls.push(name);
    out[name] = cellJson(value);
  }
  return jsonNulls.length > 0 ? { row: out, jsonNulls } : { row: out };
}

/**
 * The SQL editor's value parsers (int8 keeps its digits, dates and zone-less timestamps stay text),
 * plus timestamptz as Postgres prints it: a grid cell is edited and matched by that text, and a JS Date
 * would drop microseconds. JSON null becomes JSON_NULL.
 */
export const rowTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format !== 'binary' && JSON_TYPES.has(oid)) return parseJsonCell;
    if (format !== 'binary' && oid === TIMESTAMPTZ) return (value: string) => value;
    if (format !== 'binary' && oid === TIMESTAMPTZ_ARRAY) return pg.types.getTypeParser(TEXT_ARRAY, 'text');
    return editorTypes.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** The relation behind a table id (tables, views, materialized and foreign tables); 404 when none. */
export async function loadTable(client: pg.ClientBase, id: number): Promise<TableMeta> {
  if (id > MAX_OID) throw notFound(`Table ${id} not found`);
  const q = tableMetaQuery(id);
  const { rows } = await client.query<TableMetaRow>(q.text, q.values);
  if (rows.length === 0) throw notFound(`Table ${id} not found`);
  return toTableMeta(rows[0]!);
}

/** Runs `work` on the table, as the role when one is given (see impersonation.ts). */
export function withTable<T>(
  pools: ProjectPools,
  ref: string,
  id: number,
  options: SessionOptions,
  work: (client: pg.PoolClient, table: TableMeta) => Promise<T>,
): Promise<T> {
  return withSession(pools, ref, options, (client) => loadTable(client, id), work);
}

/**
 * A page's rows as JSON-safe records; a cut cell holds its cut text and is listed in `truncated`, a JSON
 * null is null listed in `jsonNulls` (left out when there is none).
 */
export function toRowsPage(rows: unknown[][], columns: readonly PageColumn[]): RowsPage {
  const truncated: RowsPage['truncated'] = [];
  const jsonNulls: NonNullable<RowsPage['jsonNulls']> = [];
  const out = rows.map((values, index) => {
    const row: Row = {};
    for (const column of columns) {
      const cut = column.cut === undefined ? null : values[column.cut];
      if (cut !== null && cut !== undefined) {
        row[column.name] = cut;
        truncated.push({ row: index, column: column.name });
      } else {
        const value = values[column.value];
        if (value === JSON_NULL) jsonNulls.push({ row: index, column: column.name });
        row[column.name] = cellJson(value);
      }
    }
    return row;
  });
  return jsonNulls.length > 0 ? { rows: out, truncated, jsonNulls } : { rows: out, truncated };
}

export interface SelectRowsInput {
  filters?: RowFilter[];
  sorts?: RowSort[];
  page?: number;
  limit?: number;
  role?: Impersonation;
}

export function selectRows(pools: ProjectPools, ref: string, id: number, input: SelectRowsInput, maxChars = TABLE_CELL_MAX_CHARS): Promise<RowsPage> {
  return withTable(pools, ref, id, { role: input.role }, async (client, table) => {
    const statement = selectRowsStatement(table, { ...input, maxChars });
    const result = await client.query<unknown[]>({ text: statement.text, rowMode: 'array', types: rowTypes });
    return toRowsPage(result.rows, statement.columns);
  });
}

/**
 * The number of rows matching the filters: exact while the planner expects at most
 * EXACT_COUNT_THRESHOLD rows (or when asked for), else the planner's estimate, flagged.
 */
export function countRows(
  pools: ProjectPools,
  ref: string,
  id: number,
  input: { filters?: RowFilter[]; role?: Impersonation; exact?: boolean },
): Promise<RowCount> {
  return withTable(pools, ref, id, { role: input.role }, async (client, table) => {
    if (!input.exact) {
      const plan = await client.query<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(estimateRowsStatement(table, input.filters));
      const estimate = Math.round(plan.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
      if (estimate > EXACT_COUNT_THRESHOLD) return { count: estimate, estimate: true };
    }
    const { rows } = await client.query<[string]>({ text: countRowsStatement(table, input.filters), rowMode: 'array', types: rowTypes });
    return { count: Number(rows[0]![0]), estimate: false };
  });
}

const ROW_GONE = 'The row was not found: it may have been deleted, or row-level security hides it';

export function loadFullValue(
  pools: ProjectPools,
  ref: string,
  id: number,
  input: { match: Row; column: string; role?: Impersonation },
): Promise<{ value: unknown; jsonNull?: true }> {
  return withTable(pools, ref, id, { role: input.role }, async (client, table) => {
    const { rows } = await client.query<unknown[]>({ text: fullValueStatement(table, input.match, input.column), rowMode: 'array', types: rowTypes });
    if (rows.length === 0) throw notFound(ROW_GONE);
    const value = rows[0]![0];
    return value === JSON_NULL ? { value: null, jsonNull: true } : { value: toJsonValue(value) };
  });
}

export function insertRow(pools: ProjectPools, ref: string, id: number, input: { values: Row; role?: Impersonation }): Promise<{ row: Row; jsonNulls?: string[] }> {
  return withTable(pools, ref, id, { role: input.role }, async (client, table) => {
    const { rows } = await client.query<Row>({ text: insertRowStatement(table, input.values), types: rowTypes });
    // A BEFORE trigger may skip the insert; RLS refuses with an error rather than hiding it.
    if (rows.length === 0) throw new HttpError(409, 'The row was not inserted: a trigger skipped it');
    return toWrittenRow(rows[0]!);
  });
}

/**
 * Updates one row. With `expected` (the values the edit was based on) the row is first locked and
 * compared in the same transaction: if it changed since, the reply is a 409 with the row as it is now
 * and nothing is written, so one editor never silently overwrites another's change.
 */
export function updateRow(
  pools: ProjectPools,
  ref: string,
  id: number,
  input: { match: Row; values: Row; expected?: Row; expectedJsonNulls?: string[]; role?: Impersonation },
  maxChars = TABLE_CELL_MAX_CHARS,
): Promise<{ row: Row; jsonNulls?: string[] }> {
  const { expected } = input;
  return withTable(pools, ref, id, { role: input.role, transaction: expected !== undefined }, async (client, table) => {
    // Built first: a client mistake in either is a 400 before any lock is taken.
    const update = updateRowStatement(table, input.match, input.values);
    if (expected !== undefined) {
      const lock = lockRowStatement(table, input.match, expected, maxChars, input.expectedJsonNulls);
      const { rows: locked } = await client.query<unknown[]>({ text: lock.text, rowMode: 'array', types: rowTypes });
      if (locked.length === 0) throw notFound(ROW_GONE);
      if (locked[0]![lock.same] !== true) {
        const page = toRowsPage(locked, lock.columns);
        const current = {
          row: page.rows[0]!,
          truncated: page.truncated.map((t) => t.column),
          ...(page.jsonNulls ? { jsonNulls: page.jsonNulls.map((t) => t.column) } : {}),
        };
        throw new HttpError(409, RowConflictMessages.reply, ROW_CHANGED, { current });
      }
    }
    const { rows } = await client.query<Row>({ text: update, types: rowTypes });
    if (rows.length === 0) throw notFound(ROW_GONE);
    return toWrittenRow(rows[0]!);
  });
}

export function deleteRows(
  pools: ProjectPools,
  ref: string,
  id: number,
  input: { matches?: Row[]; filters?: RowFilter[]; role?: Impersonation },
): Promise<{ deleted: number }> {
  return withTable(pools, ref, id, { role: input.role }, async (client, table) => {
    const result = await client.query(deleteRowsStatement(table, input));
    return { deleted: result.rowCount ?? 0 };
  });
}

/**
 * Empties the table. The route takes no role: truncation is never done while impersonating (the
 * grid disables it with Messages.truncateWhileImpersonating), as TRUNCATE ignores row-level security.
 */
export function truncateTable(pools: ProjectPools, ref: string, id: number): Promise<{ ok: true }> {
  return withTable(pools, ref, id, {}, async (client, table) => {
    await client.query(truncateTableStatement(table));
    return { ok: true as const };
  });
}
