import { quoteIdent as quoteSqlIdent, quoteLiteral as quoteSqlLiteral } from '@dash/contracts';
import { PostgrestError } from './errors';
import { defaultName } from './field';
import type { Range } from './range';
import type { SchemaCache } from '../schema/types';
import type { Comparison, Condition, Field, Filter, FtsOperator, LogicTree, OrderTerm, SelectNode } from './types';

/** What one read asks for: the relation, and the parsed `select`, filters, `order` and range. */
export interface ReadQuery {
  schema: string;
  relation: string;
  select: SelectNode[];
  /** Filters and logic trees, all of which a row must pass. */
  filters: Filter[];
  order: OrderTerm[];
  range: Range;
  /** `Prefer: count=exact`: also count every row the filters let through. */
  exactCount?: boolean;
  /** PostgREST's `db-aggregates-enabled`: off, an aggregate in `select` is PGRST123. */
  aggregatesEnabled?: boolean;
}

/** How a read is written, beside what it asks for. */
export interface ReadOptions {
  /** The statement's parameters so far: a write or a function call puts its own before the read's. */
  params?: Parameters;
  /**
   * SQL of the from-item read instead of the relation (a write's CTE, a function call); names and
   * relationships are still those of `query.schema`/`query.relation` in the schema cache.
   */
  source?: string;
  /** `json` (an array of objects) or `csv` (a header line, then a line per row). */
  format?: 'json' | 'csv';
}

/** One statement and its parameters. Every parameter is text of unspecified type (see `Parameters`). */
export interface Statement {
  text: string;
  values: string[];
}

const OPERATORS: Record<Comparison, string> = {
  eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=', like: 'like', ilike: 'ilike', match: '~', imatch: '~*',
  isdistinct: 'is distinct from', cs: '@>', cd: '<@', ov: '&&', sl: '<<', sr: '>>', nxr: '&<', nxl: '&>', adj: '-|-',
};
const TSQUERY: Record<FtsOperator, string> = {
  fts: 'pg_catalog.to_tsquery', plfts: 'pg_catalog.plainto_tsquery', phfts: 'pg_catalog.phraseto_tsquery', wfts: 'pg_catalog.websearch_to_tsquery',
};
const IS: Record<Extract<Condition['operation'], { kind: 'is' }>['value'], string> = {
  null: 'is null', not_null: 'is not null', true: 'is true', false: 'is false', unknown: 'is unknown',
};

/**
 * Every value from the URL goes in as a parameter, never into the statement's text: no quoting mistake
 * can then turn a value into SQL, and statements that differ only in values share their text. pg sends
 * parameters with no type, which Postgres infers from where they stand exactly as it types PostgREST's
 * unknown-typed literals: `"age" = $1` compares as the column's type, `= any($1)` as an array of it.
 */
export class Parameters {
  readonly values: string[] = [];

  add(value: string): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Postgres cannot hold NUL in a statement's text, so a name or key with one is refused as Postgres refuses it. */
function refuseNul(text: string): string {
  if (text.includes('\u0000')) throw new PostgrestError(400, '22021', 'invalid byte sequence for encoding "UTF8": 0x00');
  return text;
}

export const quoteIdent = (name: string): string => quoteSqlIdent(refuseNul(name));
const quoteLiteral = (text: string): string => quoteSqlLiteral(refuseNul(text));

/** Postgres' array literal for a list of text values (each element quoted, `"` and `\` escaped). */
export function arrayLiteral(values: string[]): string {
  return `{${values.map((value) => `"${value.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
}

/**
 * One statement answering a read of a single table or view with PostgREST's response body as JSON text
 * (`body`), the number of rows in it (`page_total`) and, asked for, the total the filters let through
 * (`total_result_set`, else null).
 *
 * Embedded resources need the schema cache's relationships, which this layer does not have yet: an
 * embed in `select` is PGRST200, and a filter or order on an embedded resource PGRST108, as PostgREST
 * answers when it finds no relationship. The schema cache's session resolves them here instead.
 */
export function buildReadSql(_cache: SchemaCache | null, query: ReadQuery, options: ReadOptions = {}): Statement {
  const params = options.params ?? new Parameters();
  const table = quoteIdent(query.relation);
  const from = options.source === undefined ? `${quoteIdent(query.schema)}.${table}` : `${options.source} as ${table}`;
  const column = (field: Field) => fieldSql(table, field);

  const columns: string[] = [];
  const groupBy: string[] = [];
  for (const node of query.select) {
    switch (node.kind) {
      case 'star':
        columns.push(`${table}.*`);
        groupBy.push(`${table}.*`);
        break;
      case 'column': {
        const sql = withCast(column(node.field), node.cast);
        const named = node.alias !== undefined || node.cast !== undefined || node.field.jsonPath.length > 0;
        columns.push(named ? `${sql} as ${quoteIdent(node.alias ?? defaultName(node.field))}` : sql);
        groupBy.push(sql);
        break;
      }
      case 'aggregate': {
        if (!query.aggregatesEnabled) throw new PostgrestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
        const argument = node.field ? withCast(column(node.field), node.fieldCast) : '*';
        columns.push(`${withCast(`pg_catalog.${node.fn}(${argument})`, node.cast)} as ${quoteIdent(node.alias ?? node.fn)}`);
        break;
      }
      case 'embed':
        throw new PostgrestError(
          400, 'PGRST200', `Could not find a relationship between '${query.relation}' and '${node.relation}' in the schema cache`,
          `Searched for a foreign key relationship between '${query.relation}' and '${node.relation}' in the schema '${query.schema}', but no matches were found.`,
        );
    }
  }
  const aggregated = columns.length > groupBy.length;

  const conditions = query.filters.map((filter) => {
    notEmbedded(filter.embedPath);
    return treeSql(filter.tree, column, params);
  });
  const where = conditions.length > 0 ? ` where ${conditions.join(' and ')}` : '';
  const order = query.order.map((term) => {
    notEmbedded(term.relation === undefined ? [] : [term.relation]);
    return [column(term.field), term.direction, term.nulls && `nulls ${term.nulls}`].filter(Boolean).join(' ');
  });

  const inner = [
    `select ${columns.join(', ')} from ${from}${where}`,
    aggregated && groupBy.length > 0 ? ` group by ${groupBy.join(', ')}` : '',
    order.length > 0 ? ` order by ${order.join(', ')}` : '',
    query.range.limit !== null ? ` limit ${params.add(String(query.range.limit))}` : '',
    query.range.offset > 0 ? ` offset ${params.add(String(query.range.offset))}` : '',
  ].join('');
  const total = query.exactCount ? `(select pg_catalog.count(*) from ${from}${where})` : 'null::bigint';
  return {
    text:
      `select ${total} as total_result_set, pg_catalog.count(_postgrest_t) as page_total, ` +
      `coalesce(pg_catalog.json_agg(_postgrest_t), '[]')::text as body from (${inner}) as _postgrest_t`,
    values: params.values,
  };
}

function notEmbedded(path: string[]): void {
  if (path.length === 0) return;
  const name = path.join('.');
  throw new PostgrestError(
    400, 'PGRST108', `'${name}' is not an embedded resource in this request`, null,
    `Verify that '${name}' is included in the 'select' query parameter.`,
  );
}

/** `"table"."column"` and its JSON path: keys as literals, array indexes as the integers they were checked to be. */
export function fieldSql(table: string, field: Field): string {
  const steps = field.jsonPath.map((step) => `${step.arrow}${typeof step.key === 'number' ? String(step.key) : quoteLiteral(step.key)}`);
  return `${table}.${quoteIdent(field.name)}${steps.join('')}`;
}

/**
 * Cast types are single words of `[A-Za-z0-9_]` (the parser's rule), so they are written as they are. The
 * parentheses matter: `::` binds tighter than `->>`, so `data->>'x'::int` would cast the key instead.
 */
function withCast(sql: string, type: string | undefined): string {
  return type === undefined ? sql : `(${sql})::${type}`;
}

/** A filter's condition or logic tree as SQL, its values added to `params` (the write builders' WHERE too). */
export function treeSql(tree: Condition | LogicTree, column: (field: Field) => string, params: Parameters): string {
  const sql = tree.kind === 'logic'
    ? `(${tree.children.map((child) => treeSql(child, column, params)).join(` ${tree.op} `)})`
    : conditionSql(tree, column(tree.field), params);
  return tree.negated ? `not ${sql}` : sql;
}

function conditionSql(condition: Condition, column: string, params: Parameters): string {
  const operation = condition.operation;
  switch (operation.kind) {
    case 'compare': {
      // PostgREST's LIKE patterns use `*` for `%` (a `%` is awkward in a URL).
      const value = operation.op === 'like' || operation.op === 'ilike' ? operation.value.replace(/\*/g, '%') : operation.value;
      const operand = operation.quantifier ? `${operation.quantifier}(${params.add(value)})` : params.add(value);
      return `${column} ${OPERATORS[operation.op]} ${operand}`;
    }
    case 'in':
      return `${column} = any(${params.add(arrayLiteral(operation.values))})`;
    case 'is':
      return `${column} ${IS[operation.value]}`;
    case 'fts': {
      const language = operation.language === undefined ? '' : `${params.add(operation.language)}, `;
      return `${column} @@ ${TSQUERY[operation.op]}(${language}${params.add(operation.value)})`;
    }
  }
}
