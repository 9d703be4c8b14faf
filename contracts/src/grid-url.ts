import { FILTER_OPERATORS, type FilterOperator, type RowFilter, type RowSort } from './table-editor';

/**
 * The table editor's URL forms (spec section 2): `filter=column:abbrev:value` and
 * `sort=column:asc|desc`, both repeatable, and `view=definition` (data, the default, is absent).
 * Pure string codecs, so the grid, cross-area links and tests agree on one form.
 */

export type GridView = 'data' | 'definition';

export interface GridUrlState {
  filters: RowFilter[];
  sorts: RowSort[];
  view: GridView;
}

const OPERATORS: ReadonlySet<string> = new Set(FILTER_OPERATORS.map((o) => o.abbrev));

export function formatFilterParam(filter: RowFilter): string {
  return `${filter.column}:${filter.operator}:${filter.value}`;
}

/**
 * `column:abbrev:value`. The column ends at the first `:` that is followed by a known operator and a
 * `:`, so the value may hold any text (colons included), and so may a column unless a part of it
 * looks like `:eq:`. Anything else is not a filter.
 */
export function parseFilterParam(text: string): RowFilter | undefined {
  let colon = text.indexOf(':');
  while (colon > 0) {
    const next = text.indexOf(':', colon + 1);
    if (next < 0) return undefined;
    const operator = text.slice(colon + 1, next);
    if (OPERATORS.has(operator)) {
      return { column: text.slice(0, colon), operator: operator as FilterOperator, value: text.slice(next + 1) };
    }
    colon = next;
  }
  return undefined;
}

export function formatSortParam(sort: RowSort): string {
  return `${sort.column}:${sort.ascending ? 'asc' : 'desc'}`;
}

/** `column:asc` or `column:desc`; the direction is after the last `:`, so a column may hold colons. */
export function parseSortParam(text: string): RowSort | undefined {
  const colon = text.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const direction = text.slice(colon + 1);
  if (direction !== 'asc' && direction !== 'desc') return undefined;
  return { column: text.slice(0, colon), ascending: direction === 'asc' };
}

function decode(part: string): string {
  const text = part.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a malformed escape is kept as typed rather than dropping the parameter
  }
}

/** `?a=1&b=2` → `[['a','1'], ['b','2']]`, decoded as the browser does (`+` is a space). */
export function parseQuery(search: string): [string, string][] {
  const query = search.startsWith('?') ? search.slice(1) : search;
  if (!query) return [];
  return query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? [decode(pair), ''] : [decode(pair.slice(0, eq)), decode(pair.slice(eq + 1))];
    });
}

/** Percent-encodes a query part but leaves `:` and `,` readable, so links show `filter=id:in:1,2`. */
export function encodeQueryPart(text: string): string {
  return encodeURIComponent(text).replace(/%3A/gi, ':').replace(/%2C/gi, ',');
}

/** `[['a','1']]` → `?a=1`, or `''` when empty. */
export function formatQuery(pairs: readonly (readonly [string, string])[]): string {
  return pairs.length ? `?${pairs.map(([k, v]) => `${encodeQueryPart(k)}=${encodeQueryPart(v)}`).join('&')}` : '';
}

/** The grid's state in a query string; malformed filter and sort parameters are left out. */
export function parseGridSearch(search: string): GridUrlState {
  const filters: RowFilter[] = [];
  const sorts: RowSort[] = [];
  let view: GridView = 'data';
  for (const [key, value] of parseQuery(search)) {
    if (key === 'filter') {
      const filter = parseFilterParam(value);
      if (filter) filters.push(filter);
    } else if (key === 'sort') {
      const sort = parseSortParam(value);
      if (sort) sorts.push(sort);
    } else if (key === 'view' && value === 'definition') {
      view = 'definition';
    }
  }
  return { filters, sorts, view };
}

/**
 * `search` with the given parts of the grid state replaced and every other parameter kept in place
 * (e.g. `schema`). Returns `?...`, or `''` when nothing is left.
 */
export function withGridSearch(search: string, state: Partial<GridUrlState>): string {
  const replaced = new Set<string>();
  if (state.filters) replaced.add('filter');
  if (state.sorts) replaced.add('sort');
  if (state.view) replaced.add('view');
  const pairs: [string, string][] = parseQuery(search).filter(([key]) => !replaced.has(key));
  for (const filter of state.filters ?? []) pairs.push(['filter', formatFilterParam(filter)]);
  for (const sort of state.sorts ?? []) pairs.push(['sort', formatSortParam(sort)]);
  if (state.view === 'definition') pairs.push(['view', 'definition']);
  return formatQuery(pairs);
}

/** Saved grid views (spec section 3) live in local storage under one key per project. */
export const GRID_VIEW_STORAGE_PREFIX = 'dash-table-editor-grid:';

export function gridViewStorageKey(ref: string): string {
  return `${GRID_VIEW_STORAGE_PREFIX}${ref}`;
}

/** A table's key inside the project's saved views: `schema.table`, or just the name in public. */
export function gridViewTableKey(schema: string, table: string): string {
  return schema === 'public' ? table : `${schema}.${table}`;
}
