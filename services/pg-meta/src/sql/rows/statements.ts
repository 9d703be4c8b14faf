import {
  DEFAULT_TABLE_PAGE_SIZE,
  IS_FILTER_VALUES,
  Messages,
  ServiceMessages,
  TABLE_CELL_MAX_CHARS,
  TABLE_PAGE_SIZES,
  type RowFilter,
  type RowSort,
} from '@dash/contracts';
import { badRequest } from '@dash/service-kit';
import { ident, literal, qualified as relation } from '../ddl/names';
import { cellValueSql, expectedSql, keyValueSql } from './literals';
import { columnOf, isLongColumn, isTextColumn, type RowColumn, type TableMeta } from './table';

/*
 * Pure builders of the table editor's row statements. Identifiers are quoted with quoteIdent and values
 * are quoted literals (see literals.ts); every column name the client sends is checked against the
 * table's catalog first, so an unknown name is a 400 that names it.
 */

type RowMatch = Record<string, unknown>;

const COMPARISONS: Record<string, string> = { eq: '=', neq: '<>', gt: '>', lt: '<', gte: '>=', lte: '<=' };

/** json has no equality or ordering operators: it is compared and sorted as jsonb. */
const comparable = (column: RowColumn, qualifier = '') => `${qualifier}${ident(column.name)}${column.typname === 'json' ? '::jsonb' : ''}`;

/** One filter of the grid as a condition. */
export function filterSql(table: TableMeta, filter: RowFilter): string {
  const column = columnOf(table, filter.column);
  const name = ident(column.name);
  const symbol = COMPARISONS[filter.operator];
  if (symbol) return `${comparable(column)} ${symbol} ${literal(filter.value)}`;
  switch (filter.operator) {
    case '~~':
    case '~~*': {
      // Patterns match the text form of non-text columns (numbers, dates, uuids...).
      const subject = isTextColumn(column) ? name : `${name}::text`;
      return `${subject} ${filter.operator === '~~' ? 'like' : 'ilike'} ${literal(filter.value)}`;
    }
    case 'in': {
      const items = filter.value.split(',').map((item) => item.trim()).filter((item) => item.length > 0);
      if (items.length === 0) throw badRequest(`The "in" filter on column "${column.name}" needs a comma-separated list of values`);
      return `${comparable(column)} in (${items.map(literal).join(', ')})`;
    }
    case 'is': {
      const value = filter.value.trim().toLowerCase().replace(/\s+/g, ' ');
      if (!(IS_FILTER_VALUES as readonly string[]).includes(value)) {
        throw badRequest(`The "is" filter takes ${IS_FILTER_VALUES.join(', ')}; "${filter.value.slice(0, 100)}" is none of them`);
      }
      // A keyword from the list above, never the client's text.
      return `${name} is ${value}`;
    }
    default:
      throw badRequest(`Unknown filter operator "${String(filter.operator)}"`);
  }
}

const whereSql = (conditions: string[]) => (conditions.length === 0 ? '' : ` where ${conditions.map((c) => `(${c})`).join(' and ')}`);

export const filtersSql = (table: TableMeta, filters: readonly RowFilter[] = []) => filters.map((f) => filterSql(table, f));

/** Sorts with nulls last; with none, the primary key's order keeps pages stable. */
export function orderBySql(table: TableMeta, sorts: readonly RowSort[] = [], qualifier = ''): string {
  const terms =
    sorts.length > 0
      ? sorts.map((s) => `${comparable(columnOf(table, s.column), qualifier)} ${s.ascending ? 'asc' : 'desc'} nulls last`)
      : table.primaryKey.map((name) => `${qualifier}${ident(name)} asc nulls last`);
  return terms.length === 0 ? '' : ` order by ${terms.join(', ')}`;
}

/** The page size, falling back to the default for anything but the allowed sizes. */
export function pageSize(limit: number | undefined): number {
  return limit !== undefined && (TABLE_PAGE_SIZES as readonly number[]).includes(limit) ? limit : DEFAULT_TABLE_PAGE_SIZE;
}

export function pageSql(page: number | undefined, limit: number | undefined): string {
  const size = pageSize(limit);
  const index = Number.isInteger(page) && (page as number) > 1 ? (page as number) - 1 : 0;
  return ` limit ${size} offset ${index * size}`;
}

/** Where each table column's value (and, for long ones, its cut text) sits in a result row (array mode). */
export interface PageColumn {
  name: string;
  value: number;
  /** Index of the cut text: non-null when the cell was longer than the limit. */
  cut?: number;
}

export interface SelectStatement {
  text: string;
  columns: PageColumn[];
}

export interface SelectInput {
  filters?: readonly RowFilter[];
  sorts?: readonly RowSort[];
  page?: number;
  limit?: number;
  /** Long cells are cut to this many characters plus '...'. */
  maxChars?: number;
}

/** The select list of a page's rows: every column, long ones as NULL plus their cut text when too long. */
function pageColumnsSql(table: TableMeta, max: number, qualifier: string): { select: string[]; columns: PageColumn[] } {
  const select: string[] = [];
  const columns: PageColumn[] = [];
  for (const column of table.columns) {
    const name = `${qualifier}${ident(column.name)}`;
    if (!isLongColumn(column)) {
      columns.push({ name: column.name, value: select.push(name) - 1 });
      continue;
    }
    const long = `length(${name}::text) > ${max}`;
    const value = select.push(`case when ${long} then null else ${name} end`) - 1;
    const cut = select.push(`case when ${long} then left(${name}::text, ${max}) || '...' end`) - 1;
    columns.push({ name: column.name, value, cut });
  }
  return { select, columns };
}

/**
 * A page of rows. Long cells (text, JSON, arrays, bytea) longer than `maxChars` come back NULL with
 * their first `maxChars` characters and '...' in an extra result column, so a page of huge values stays
 * small on the wire and in the service; the route reports which cells were cut. The page is chosen in
 * a subquery first, so lengths are measured (and values detoasted) for the returned rows only, not for
 * every row the filters let through to the sort; the outer ORDER BY repeats the page's order (the
 * planner sees the subquery is already sorted and adds no sort).
 */
export function selectRowsStatement(table: TableMeta, input: SelectInput = {}): SelectStatement {
  const { select, columns } = pageColumnsSql(table, input.maxChars ?? TABLE_CELL_MAX_CHARS, 'page.');
  const page =
    `select * from ${relation(table)}` +
    whereSql(filtersSql(table, input.filters)) +
    orderBySql(table, input.sorts) +
    pageSql(input.page, input.limit);
  const text = `select ${select.join(', ') || 'null'} from (${page}) as page${orderBySql(table, input.sorts, 'page.')}`;
  return { text, columns };
}

export function countRowsStatement(table: TableMeta, filters: readonly RowFilter[] = []): string {
  return `select count(*)::int8 from ${relation(table)}${whereSql(filtersSql(table, filters))}`;
}

/** The planner's row estimate for the same filters (the first plan node's "Plan Rows"). */
export function estimateRowsStatement(table: TableMeta, filters: readonly RowFilter[] = []): string {
  return `explain (format json) select 1 from ${relation(table)}${whereSql(filtersSql(table, filters))}`;
}

/** One row identified by its primary key: every key column, and nothing else. */
export function matchSql(table: TableMeta, match: RowMatch, noKeyMessage: string): string {
  if (table.primaryKey.length === 0) throw badRequest(noKeyMessage);
  for (const name of Object.keys(match)) {
    if (!table.primaryKey.includes(name)) {
      columnOf(table, name);
      throw badRequest(`Column "${name}" is not part of the primary key (${table.primaryKey.join(', ')})`);
    }
  }
  return table.primaryKey
    .map((name) => {
      if (!Object.hasOwn(match, name)) throw badRequest(`The row match needs a value for primary-key column "${name}"`);
      const column = columnOf(table, name);
      return `${ident(name)} = ${keyValueSql(column, match[name])}`;
    })
    .join(' and ');
}

/** Several rows by primary key: `key in (...)` for a one-column key, else one condition per row. */
export function matchesSql(table: TableMeta, matches: readonly RowMatch[], noKeyMessage: string): string {
  if (table.primaryKey.length === 1 && matches.length > 0) {
    const key = table.primaryKey[0]!;
    for (const match of matches) matchSql(table, match, noKeyMessage);
    const column = columnOf(table, key);
    return `${ident(key)} in (${matches.map((m) => keyValueSql(column, m[key])).join(', ')})`;
  }
  return matches.map((m) => `(${matchSql(table, m, noKeyMessage)})`).join(' or ');
}

function writableColumn(table: TableMeta, name: string): RowColumn {
  const column = columnOf(table, name);
  if (column.generated) throw badRequest(`Column "${name}" is generated and cannot be written`);
  if (column.identity === 'a') throw badRequest(`Column "${name}" is an identity column GENERATED ALWAYS and cannot be written`);
  return column;
}

function assignments(table: TableMeta, values: RowMatch): Array<[RowColumn, string]> {
  return Object.entries(values).map(([name, value]) => {
    const column = writableColumn(table, name);
    return [column, cellValueSql(column, value)];
  });
}

export function insertRowStatement(table: TableMeta, values: RowMatch): string {
  const pairs = assignments(table, values);
  if (pairs.length === 0) throw badRequest(ServiceMessages.noValueToInsert);
  return (
    `insert into ${relation(table)} (${pairs.map(([c]) => ident(c.name)).join(', ')}) ` +
    `values (${pairs.map(([, v]) => v).join(', ')}) returning *`
  );
}

/**
 * Updates one row matched by its whole primary key. Primary-key columns may be given new values (the
 * match names the row as it was); generated, identity ALWAYS and encrypted columns may not.
 */
export function updateRowStatement(table: TableMeta, match: RowMatch, values: RowMatch): string {
  const where = Object.keys(match).length === 0 ? '' : matchSql(table, match, Messages.noPrimaryKeyForWrite);
  if (!where) throw badRequest(ServiceMessages.noFiltersForUpdate);
  const pairs = assignments(table, values);
  const encrypted = pairs.find(([c]) => c.encrypted);
  if (encrypted) throw badRequest(Messages.encryptedNotEditable);
  if (pairs.length === 0) throw badRequest('no value to update');
  return `update ${relation(table)} set ${pairs.map(([c, v]) => `${ident(c.name)} = ${v}`).join(', ')} where ${where} returning *`;
}

export interface LockRowStatement extends SelectStatement {
  /** Index of the result column that is true when every expected value still holds. */
  same: number;
}

/**
 * Locks the row an update names (`for update`, so no other write can slip in before ours) and reads it
 * as a page shows it (long cells cut), with whether each `expected` value still holds (expectedSql).
 * Run in the update's transaction, before it; under READ COMMITTED a row changed while we waited for
 * the lock is read as it is after that change.
 */
export function lockRowStatement(
  table: TableMeta,
  match: RowMatch,
  expected: RowMatch,
  maxChars = TABLE_CELL_MAX_CHARS,
  expectedJsonNulls: readonly string[] = [],
): LockRowStatement {
  const where = Object.keys(match).length === 0 ? '' : matchSql(table, match, Messages.noPrimaryKeyForWrite);
  if (!where) throw badRequest(ServiceMessages.noFiltersForUpdate);
  const jsonNulls = new Set(expectedJsonNulls);
  const conditions = Object.entries(expected).map(([name, value]) => `(${expectedSql(columnOf(table, name), value, jsonNulls.has(name))})`);
  const { select, columns } = pageColumnsSql(table, maxChars, '');
  const same = select.push(conditions.length > 0 ? conditions.join(' and ') : 'true') - 1;
  return { text: `select ${select.join(', ')} from ${relation(table)} where ${where} for update`, columns, same };
}

export interface DeleteInput {
  matches?: readonly RowMatch[];
  filters?: readonly RowFilter[];
}

/**
 * Deletes the listed rows (by primary key) or, for the 'all rows' selection, every row matching the
 * filters; given both, only listed rows that also match the filters. Neither is refused: a delete
 * statement always has a condition.
 */
export function deleteRowsStatement(table: TableMeta, input: DeleteInput): string {
  const conditions = filtersSql(table, input.filters);
  if (input.matches && input.matches.length > 0) conditions.push(matchesSql(table, input.matches, Messages.noPrimaryKeyForWrite));
  if (conditions.length === 0) throw badRequest(ServiceMessages.noFiltersForDelete);
  return `delete from ${relation(table)}${whereSql(conditions)}`;
}

export const truncateTableStatement = (table: TableMeta) => `truncate table ${relation(table)}`;

/** One cell in full, for 'Load full value'. */
export function fullValueStatement(table: TableMeta, match: RowMatch, column: string): string {
  const where = matchSql(table, match, Messages.noPrimaryKeyForValue);
  return `select ${ident(columnOf(table, column).name)} from ${relation(table)} where ${where}`;
}

export interface ExportInput {
  filters?: readonly RowFilter[];
  sorts?: readonly RowSort[];
  matches?: readonly RowMatch[];
}

function exportConditions(table: TableMeta, input: ExportInput): string[] {
  const conditions = filtersSql(table, input.filters);
  if (input.matches && input.matches.length > 0) conditions.push(matchesSql(table, input.matches, Messages.noPrimaryKeyForWrite));
  return conditions;
}

/** The rows to export as one SELECT (all columns, in the grid's order). */
export function exportSelectSql(table: TableMeta, input: ExportInput): string {
  return `select * from ${relation(table)}${whereSql(exportConditions(table, input))}${orderBySql(table, input.sorts)}`;
}

/** `COPY (select ...) TO STDOUT` as CSV with a header line. */
export function exportRowsStatement(table: TableMeta, input: ExportInput): string {
  return `copy (${exportSelectSql(table, input)}) to stdout with (format csv, header true)`;
}

/** How many rows an export would write, counting no further than `limit + 1`. */
export function exportCountStatement(table: TableMeta, input: ExportInput, limit: number): string {
  return `select count(*)::int8 from (select 1 from ${relation(table)}${whereSql(exportConditions(table, input))} limit ${Math.floor(limit) + 1}) as rows`;
}

export interface ImportInput {
  header: boolean;
  delimiter: string;
}

/** `COPY table (columns) FROM STDIN` as CSV. */
export function importRowsStatement(table: Pick<TableMeta, 'schema' | 'name'>, columns: readonly string[], input: ImportInput): string {
  return (
    `copy ${relation(table)} (${columns.map(ident).join(', ')}) from stdin ` +
    `with (format csv, header ${input.header ? 'true' : 'false'}, delimiter ${literal(input.delimiter)})`
  );
}
