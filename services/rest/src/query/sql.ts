import { quoteIdent as quoteSqlIdent, quoteLiteral as quoteSqlLiteral } from '@dash/contracts';
import { PostgrestError } from './errors';
import { defaultName } from './field';
import type { Range } from './range';
import { findRelationship, isToOne, relationNotFound, type Relationship } from '../schema/relationships';
import { relationKey, type SchemaCache } from '../schema/types';
import type { Comparison, Condition, Field, Filter, FtsOperator, LogicTree, OrderTerm, SelectNode } from './types';

/** What one read asks for: the relation, and the parsed `select`, filters, `order` and range. */
export interface ReadQuery {
  schema: string;
  relation: string;
  select: SelectNode[];
  /**
   * Filters and logic trees, all of which a row must pass; `embedPath` picks the embedded resource they filter
   * (its rows only, or its parent's too with `!inner`). A filter named after an embed of its level
   * (`actors=not.is.null`) tests that embed for null or empty.
   */
  filters: Filter[];
  order: OrderTerm[];
  range: Range;
  /** `Prefer: count=exact`: also count every row the filters let through. */
  exactCount?: boolean;
  /** PostgREST's `db-aggregates-enabled`: off, an aggregate in `select` is PGRST123. */
  aggregatesEnabled?: boolean;
  /**
   * `order`, `limit` and `offset` of embedded resources (`actors.order=last_name`, `actors.limit=2`): `path`
   * names the embed by its alias or relation name, nested ones from the top (`['films', 'actors']`). Filters of
   * embeds are in `filters` (their `embedPath`). A range applies to each parent row's embedded rows.
   */
  embedded?: EmbedOptions[];
}

/** The `order` and range of one embedded resource. */
export interface EmbedOptions {
  path: string[];
  order?: OrderTerm[];
  range?: Range;
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

/** A read's plan: one node per relation read (the top-level one, then each embedded resource). */
interface Level {
  schema: string;
  relation: string;
  /** The relation's alias in the statement (`id` unquoted, `alias` quoted). */
  id: string;
  alias: string;
  select: SelectNode[];
  children: Child[];
  filters: (Condition | LogicTree)[];
  order: OrderTerm[];
  range: Range | null;
  /**
   * A to-one spread holding aggregates (its own, or those of to-one spreads within it): they are hoisted to
   * the nearest level that is not such a spread, which groups by its other fields (PostgREST's rule). This
   * level only selects their arguments (`argumentName`) and passes up those of the spreads within it.
   */
  hoisted: boolean;
}

interface Child {
  node: Extract<SelectNode, { kind: 'embed' }>;
  /** The name the response and the query string give it: its alias, else the name written in `select`. */
  name: string;
  relationship: Relationship;
  toOne: boolean;
  level: Level;
  /** The alias of the lateral subquery that yields it, and (to-many) of its rows inside that subquery. */
  lateral: string;
  rows: string;
}

/** The single column of a to-many embed's lateral subquery (its rows as a JSON array, null when none). */
const AGGREGATE = quoteIdent('pgrst_agg');

/**
 * One statement answering a read with PostgREST's response body as text (`body`: JSON, or CSV with
 * `options.format`), the number of rows in it (`page_total`) and, asked for, the total the filters let
 * through (`total_result_set`, else null).
 *
 * Embedded resources are lateral subqueries joined to their parent's rows, as PostgREST writes them: a
 * to-one embed is its row as an object (null when none), a to-many one its rows as an array (`[]` when none).
 * `!inner` drops the parent rows whose embed is null or empty; a spread puts a to-one embed's fields (a
 * to-many one's as arrays) among its parent's. Without a schema cache (`cache` null) nothing can be embedded.
 */
export function buildReadSql(cache: SchemaCache | null, query: ReadQuery, options: ReadOptions = {}): Statement {
  const params = options.params ?? new Parameters();
  const { root, from, where, countFrom } = prepare(cache, query, options);
  const fromSql = { text: from(params) };
  const whereSql = where(params);
  const inner = levelSql(cache, root, fromSql, [], params, query.aggregatesEnabled ?? false, whereSql);
  const total = query.exactCount ? `(select pg_catalog.count(*) from ${countFrom(params)}${whereSql})` : 'null::bigint';
  const body = options.format === 'csv' ? CSV_BODY : `coalesce(pg_catalog.json_agg(_postgrest_t), '[]')::text`;
  return {
    text: `select ${total} as total_result_set, pg_catalog.count(_postgrest_t) as page_total, ${body} as body from (${inner}) as _postgrest_t`,
    values: params.values,
  };
}

/**
 * `Prefer: count=planned|estimated`: the planner's estimate of the rows the top-level filters let through, as
 * `explain (format json)` (the count is the first plan's `Plan Rows`).
 */
export function buildCountPlanSql(cache: SchemaCache | null, query: ReadQuery, options: ReadOptions = {}): Statement {
  const params = options.params ?? new Parameters();
  const { where, countFrom } = prepare(cache, query, options);
  // Every parameter added must be used in the text (Postgres cannot type one that is not), so only the count's parts are written.
  const fromSql = countFrom(params);
  return { text: `explain (format json) select 1 from ${fromSql}${where(params)}`, values: params.values };
}

/**
 * PostgREST's CSV: the first row's keys as the header (quoted when they hold a comma, quote or line break),
 * then each row as Postgres writes a record, without its parentheses (values quoted as needed, `"` doubled).
 */
const CSV_BODY =
  `coalesce(pg_catalog.array_to_string(array(select case when k ~ '[",\\r\\n]' then '"' || pg_catalog.replace(k, '"', '""') || '"' else k end ` +
  `from pg_catalog.json_object_keys(pg_catalog.json_agg(_postgrest_t)->0) as k), ','), '') || chr(10) || ` +
  `coalesce(pg_catalog.string_agg(pg_catalog.substr(_postgrest_t::text, 2, pg_catalog.length(_postgrest_t::text) - 2), chr(10)), '')`;

/**
 * The plan of the read, and writers of the top level's from-item (with every embed's join), of its `where`,
 * and of the from-item a count needs: only the joins that can drop rows (`!inner`, and embeds the top-level
 * filters test for null). Each adds its values to the parameters it is given when it is called.
 */
function prepare(cache: SchemaCache | null, query: ReadQuery, options: ReadOptions) {
  if (cache !== null && options.source === undefined && !cache.relations.has(relationKey(query.schema, query.relation))) {
    throw relationNotFound(cache, query.schema, query.relation);
  }
  const aliases = { next: 0, top: query.relation };
  const root = plan(cache, query.schema, query.relation, query.relation, query.select, aliases);
  for (const filter of query.filters) findLevel(root, filter.embedPath).filters.push(filter.tree);
  root.order = query.order;
  root.range = query.range;
  for (const embedded of query.embedded ?? []) {
    const level = findLevel(root, embedded.path);
    if (embedded.order) level.order = embedded.order;
    if (embedded.range) level.range = embedded.range;
  }
  const table = quoteIdent(query.relation);
  const source = options.source === undefined ? `${quoteIdent(query.schema)}.${table}` : `${options.source} as ${table}`;
  const aggregatesEnabled = query.aggregatesEnabled ?? false;
  const from = (params: Parameters) => source + joinsSql(cache, root, params, aggregatesEnabled);
  const where = (params: Parameters) => {
    const conditions = root.filters.map((tree) => levelTreeSql(tree, root, cache, params));
    return conditions.length > 0 ? ` where ${conditions.join(' and ')}` : '';
  };
  const tested = new Set(root.filters.flatMap(fieldNames));
  const countFrom = (params: Parameters) => source + joinsSql(cache, root, params, aggregatesEnabled, (child) =>
    child.node.join === 'inner' || tested.has(child.node.relation) || (child.node.alias !== undefined && tested.has(child.node.alias)));
  return { root, from, where, countFrom };
}

/** The columns (or embeds) a filter's conditions name. */
function fieldNames(tree: Condition | LogicTree): string[] {
  return tree.kind === 'logic' ? tree.children.flatMap(fieldNames) : [tree.field.name];
}

function plan(
  cache: SchemaCache | null, schema: string, relation: string, alias: string, select: SelectNode[], aliases: { next: number; top: string },
): Level {
  const level: Level = {
    schema, relation, id: alias, alias: quoteIdent(alias), select, children: [], filters: [], order: [], range: null, hoisted: false,
  };
  for (const node of select) {
    if (node.kind !== 'embed') continue;
    if (cache === null) {
      throw new PostgrestError(
        400, 'PGRST200', `Could not find a relationship between '${relation}' and '${node.relation}' in the schema cache`,
        `Searched for a foreign key relationship between '${relation}' and '${node.relation}' in the schema '${schema}', but no matches were found.`,
      );
    }
    const relationship = findRelationship(cache, schema, relation, node.relation, node.hint);
    const n = (aliases.next += 1);
    const target = relationship.foreignTable.name;
    // Named as PostgREST names them (`directors_1`), so Postgres' messages read alike; a long name or one the
    // top level already has gets a plain one instead (identifiers are cut at 63 bytes).
    const name = Buffer.byteLength(target) <= 50 && `${target}_${n}` !== aliases.top ? `${target}_${n}` : `pgrst_${n}`;
    const child = plan(cache, relationship.foreignTable.schema, target, name, node.select, aliases);
    child.hoisted = node.spread && isToOne(relationship)
      && (node.select.some((n) => n.kind === 'aggregate') || child.children.some((grandchild) => grandchild.level.hoisted));
    level.children.push({
      node, name: node.alias ?? node.relation, relationship, toOne: isToOne(relationship), level: child,
      lateral: quoteIdent(`pgrst_${n}_embed`), rows: quoteIdent(`pgrst_${n}_rows`),
    });
  }
  return level;
}

/** The level an embed path (`actors.roles`) names, by each embed's alias or relation name; else PGRST108. */
function findLevel(root: Level, path: string[]): Level {
  let level = root;
  for (const name of path) {
    const child = level.children.find((c) => c.node.relation === name || c.node.alias === name);
    if (!child) throw notEmbedded(name);
    level = child.level;
  }
  return level;
}

function notEmbedded(name: string): PostgrestError {
  return new PostgrestError(
    400, 'PGRST108', `'${name}' is not an embedded resource in this request`, null,
    `Verify that '${name}' is included in the 'select' query parameter.`,
  );
}

/** `select` of one level over its from-item (its embeds' joins included) and conditions. */
function levelSql(
  cache: SchemaCache | null, level: Level, from: { text: string }, conditions: string[], params: Parameters, aggregatesEnabled: boolean, where?: string,
): string {
  const ownAggregates = level.select.some((node) => node.kind === 'aggregate');
  if (ownAggregates && !aggregatesEnabled) throw new PostgrestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
  const aggregated = !level.hoisted && (ownAggregates || level.children.some((child) => child.level.hoisted));
  const columns: string[] = [];
  const groupBy: string[] = [];
  const column = (field: Field) => columnSql(cache, level, field);
  level.select.forEach((node, index) => {
    switch (node.kind) {
      case 'star': {
        columns.push(`${level.alias}.*`);
        // Grouped, `*` is grouped by each of its columns (Postgres does not group columns by their row).
        const names = nodeOutputNames(cache, level, node);
        groupBy.push(...(names.length > 0 ? names.map((name) => `${level.alias}.${quoteIdent(name)}`) : [`${level.alias}.*`]));
        break;
      }
      case 'column': {
        const sql = withCast(column(node.field), node.cast);
        const named = node.alias !== undefined || node.cast !== undefined || node.field.jsonPath.length > 0 || sql.startsWith(`${level.alias}.`) === false;
        columns.push(named ? `${sql} as ${quoteIdent(node.alias ?? defaultName(node.field))}` : sql);
        groupBy.push(sql);
        break;
      }
      case 'aggregate': {
        const argument = node.field ? withCast(column(node.field), node.fieldCast) : '*';
        if (!level.hoisted) columns.push(`${withCast(`pg_catalog.${node.fn}(${argument})`, node.cast)} as ${quoteIdent(node.alias ?? node.fn)}`);
        else if (node.field) columns.push(`${argument} as ${quoteIdent(argumentName(level, index))}`);
        break;
      }
      case 'embed': {
        const child = level.children.find((c) => c.node === node)!;
        if (level.hoisted && child.level.hoisted) {
          // Passed up as they are: the level the aggregates are hoisted to reads them by these names.
          for (const entry of hoistedEntries(cache, child.level)) {
            const name = entry.kind === 'column' ? entry.name : entry.argument;
            if (name !== null) columns.push(`${child.lateral}.${quoteIdent(name)} as ${quoteIdent(name)}`);
          }
          break;
        }
        for (const { sql, name, json, aggregate } of embedColumns(cache, child)) {
          // Grouping compares values, and json has no equality: grouped by, an embed is jsonb.
          const value = aggregated && json ? `(${sql})::jsonb` : sql;
          columns.push(`${value} as ${quoteIdent(name)}`);
          if (!aggregate) groupBy.push(value);
        }
        break;
      }
    }
  });
  const filters = where === undefined ? [...conditions, ...level.filters.map((tree) => levelTreeSql(tree, level, cache, params))] : [];
  const order = level.order.map((term) => orderSql(cache, level, term));
  const range = level.range;
  return [
    `select ${columns.join(', ')} from ${from.text}`,
    where ?? (filters.length > 0 ? ` where ${filters.join(' and ')}` : ''),
    aggregated && groupBy.length > 0 ? ` group by ${groupBy.join(', ')}` : '',
    order.length > 0 ? ` order by ${order.join(', ')}` : '',
    range && range.limit !== null ? ` limit ${params.add(String(range.limit))}` : '',
    range && range.offset > 0 ? ` offset ${params.add(String(range.offset))}` : '',
  ].join('');
}

/** The lateral joins of a level's embeds, each a subquery over the embedded relation correlated to the level's row. */
function joinsSql(
  cache: SchemaCache | null, level: Level, params: Parameters, aggregatesEnabled: boolean, only: (child: Child) => boolean = () => true,
): string {
  return level.children.filter(only).map((child) => {
    const { fromItem, conditions } = relationshipSource(level, child);
    const from = { text: fromItem + joinsSql(cache, child.level, params, aggregatesEnabled) };
    const body = levelSql(cache, child.level, from, conditions, params, aggregatesEnabled);
    const inner = child.node.join === 'inner';
    if (child.toOne) return ` ${inner ? 'inner' : 'left'} join lateral (${body}) as ${child.lateral} on true`;
    // json_agg is null over no rows: the parent shows '[]', and `!inner` drops the parent.
    const names = child.node.spread ? outputNames(cache, child.level) : ['pgrst_agg'];
    const aggregates = child.node.spread
      ? names.map((name) => `pg_catalog.json_agg(${child.rows}.${quoteIdent(name)}) as ${quoteIdent(name)}`)
      : [`pg_catalog.json_agg(${child.rows}) as ${AGGREGATE}`];
    const on = inner && names.length > 0 ? `${child.lateral}.${quoteIdent(names[0]!)} is not null` : 'true';
    return ` ${inner ? 'inner' : 'left'} join lateral (select ${aggregates.join(', ')} from (${body}) as ${child.rows}) as ${child.lateral} on ${on}`;
  }).join('');
}

/** The embedded relation's from-item and the conditions tying its rows to the parent's row. */
function relationshipSource(parent: Level, child: Child): { fromItem: string; conditions: string[] } {
  const rel = child.relationship;
  const target = `${quoteIdent(rel.foreignTable.schema)}.${quoteIdent(rel.foreignTable.name)} as ${child.level.alias}`;
  const own = (column: string) => `${child.level.alias}.${quoteIdent(column)}`;
  const parents = (column: string) => `${parent.alias}.${quoteIdent(column)}`;
  switch (rel.kind) {
    case 'computed':
      return { fromItem: `${quoteIdent(rel.function.schema)}.${quoteIdent(rel.function.name)}(${parent.alias}) as ${child.level.alias}`, conditions: [] };
    case 'many-to-many': {
      const junction = quoteIdent(`${child.level.id}_junction`);
      const on = rel.junction.targetColumns.map(([column, via]) => `${junction}.${quoteIdent(via)} = ${own(column)}`);
      return {
        fromItem: `${target} inner join ${quoteIdent(rel.junction.table.schema)}.${quoteIdent(rel.junction.table.name)} as ${junction} on ${on.join(' and ')}`,
        conditions: rel.junction.sourceColumns.map(([column, via]) => `${junction}.${quoteIdent(via)} = ${parents(column)}`),
      };
    }
    default:
      return { fromItem: target, conditions: rel.columns.map(([column, foreign]) => `${own(foreign)} = ${parents(column)}`) };
  }
}

interface EmbedColumn {
  sql: string;
  name: string;
  /** JSON (an object or an array): grouped by as jsonb. */
  json: boolean;
  /** A hoisted aggregate: not grouped by. */
  aggregate: boolean;
}

/** The parent's columns an embed becomes: one object or array, or a spread's fields (and hoisted aggregates). */
function embedColumns(cache: SchemaCache | null, child: Child): EmbedColumn[] {
  const { lateral } = child;
  if (!child.node.spread) {
    if (child.node.select.length === 0) return [];
    const sql = child.toOne ? `pg_catalog.row_to_json(${lateral}.*)` : `coalesce(${lateral}.${AGGREGATE}, '[]')`;
    return [{ sql, name: child.name, json: true, aggregate: false }];
  }
  if (!child.toOne) {
    return outputNames(cache, child.level).map((name) => ({ sql: `coalesce(${lateral}.${quoteIdent(name)}, '[]')`, name, json: true, aggregate: false }));
  }
  // A spread without aggregates has only fields: the same walk lists them.
  return hoistedEntries(cache, child.level).map((entry): EmbedColumn => {
    if (entry.kind === 'column') return { sql: `${lateral}.${quoteIdent(entry.name)}`, name: entry.name, json: entry.json, aggregate: false };
    const { node } = entry;
    const argument = entry.argument === null ? '*' : `${lateral}.${quoteIdent(entry.argument)}`;
    return { sql: withCast(`pg_catalog.${node.fn}(${argument})`, node.cast), name: node.alias ?? node.fn, json: false, aggregate: true };
  });
}

/** The name a hoisted aggregate's argument has in its spread's lateral subquery (and in those it is passed up through). */
const argumentName = (level: Level, index: number) => `pgrst_arg_${level.id}_${index}`;

type HoistedEntry =
  | { kind: 'column'; name: string; json: boolean }
  | { kind: 'aggregate'; node: Extract<SelectNode, { kind: 'aggregate' }>; argument: string | null };

/** A to-one spread's fields and hoisted aggregates, those of the hoisted spreads within it included. */
function hoistedEntries(cache: SchemaCache | null, level: Level): HoistedEntry[] {
  return level.select.flatMap((node, index): HoistedEntry[] => {
    if (node.kind === 'aggregate') return [{ kind: 'aggregate', node, argument: node.field ? argumentName(level, index) : null }];
    if (node.kind === 'embed') {
      const child = level.children.find((c) => c.node === node)!;
      if (child.level.hoisted) return hoistedEntries(cache, child.level);
    }
    const json = node.kind === 'embed' && (!node.spread || !level.children.find((c) => c.node === node)!.toOne);
    return nodeOutputNames(cache, level, node).map((name) => ({ kind: 'column', name, json }));
  });
}

/** The keys a level's rows have in the response. */
function outputNames(cache: SchemaCache | null, level: Level): string[] {
  return level.select.flatMap((node) => nodeOutputNames(cache, level, node));
}

function nodeOutputNames(cache: SchemaCache | null, level: Level, node: SelectNode): string[] {
  switch (node.kind) {
    case 'star':
      return cache?.relations.get(relationKey(level.schema, level.relation))?.columns.map((column) => column.name) ?? [];
    case 'column':
      return [node.alias ?? defaultName(node.field)];
    case 'aggregate':
      return [node.alias ?? node.fn];
    case 'embed': {
      const child = level.children.find((c) => c.node === node)!;
      return node.spread ? outputNames(cache, child.level) : node.select.length > 0 ? [child.name] : [];
    }
  }
}

/**
 * A column of the level's relation, or a computed column: a function of the relation's schema taking its
 * row (`full_name(actors)`), used when the relation has no column of that name.
 */
function columnSql(cache: SchemaCache | null, level: Level, field: Field): string {
  const relation = cache?.relations.get(relationKey(level.schema, level.relation));
  if (cache && relation && relation.rowTypeOid !== undefined && !relation.columns.some((column) => column.name === field.name)) {
    const computed = cache.routines.get(relationKey(level.schema, field.name))?.find((routine) =>
      routine.parameters.length === 1 && routine.parameters[0]!.typeOid === relation.rowTypeOid && routine.returnKind !== 'void');
    if (computed) return `${quoteIdent(computed.schema)}.${quoteIdent(computed.name)}(${level.alias})${jsonPathSql(field)}`;
  }
  return fieldSql(level.alias, field);
}

function childNamed(level: Level, name: string): Child | undefined {
  return level.children.find((child) => child.node.relation === name || child.node.alias === name);
}

function orderSql(cache: SchemaCache | null, level: Level, term: OrderTerm): string {
  let column: string;
  if (term.relation === undefined) {
    column = columnSql(cache, level, term.field);
  } else {
    const child = childNamed(level, term.relation);
    if (!child) throw notEmbedded(term.relation);
    if (!child.toOne) {
      throw new PostgrestError(
        400, 'PGRST118', `A related order on '${child.name}' is not possible`,
        `'${level.relation}' and '${child.name}' do not form a many-to-one or one-to-one relationship`,
      );
    }
    column = fieldSql(child.lateral, term.field);
  }
  return [column, term.direction, term.nulls && `nulls ${term.nulls}`].filter(Boolean).join(' ');
}

/** `"table"."column"` and its JSON path: keys as literals, array indexes as the integers they were checked to be. */
export function fieldSql(table: string, field: Field): string {
  return `${table}.${quoteIdent(field.name)}${jsonPathSql(field)}`;
}

function jsonPathSql(field: Field): string {
  return field.jsonPath.map((step) => `${step.arrow}${typeof step.key === 'number' ? String(step.key) : quoteLiteral(step.key)}`).join('');
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
  return logicSql(tree, (condition) => conditionSql(condition, column(condition.field), params));
}

/** A filter at a level of a read: its columns that level's (computed ones included), its embeds' names null tests. */
function levelTreeSql(tree: Condition | LogicTree, level: Level, cache: SchemaCache | null, params: Parameters): string {
  return logicSql(tree, (condition) => conditionAt(condition, level, cache, params));
}

function logicSql(tree: Condition | LogicTree, condition: (condition: Condition) => string): string {
  const sql = tree.kind === 'logic' ? `(${tree.children.map((child) => logicSql(child, condition)).join(` ${tree.op} `)})` : condition(tree);
  return tree.negated ? `not ${sql}` : sql;
}

/**
 * A condition at a level. Named after one of its embeds (`actors=not.is.null`), it tests whether the embed
 * is null or empty, the only operator PostgREST allows there (else PGRST120).
 */
function conditionAt(condition: Condition, level: Level, cache: SchemaCache | null, params: Parameters): string {
  const child = condition.field.jsonPath.length === 0 ? childNamed(level, condition.field.name) : undefined;
  if (!child) {
    const type = condition.field.jsonPath.length === 0 && condition.operation.kind === 'fts'
      ? cache?.relations.get(relationKey(level.schema, level.relation))?.columns.find((column) => column.name === condition.field.name)?.type
      : undefined;
    return conditionSql(condition, columnSql(cache, level, condition.field), params, type !== undefined && type !== 'tsvector');
  }
  if (condition.operation.kind !== 'is' || condition.operation.value !== 'null') {
    throw new PostgrestError(
      400, 'PGRST120', `Bad operator on the '${child.node.relation}' embedded resource`,
      'Only is null or not is null filters are allowed on embedded resources',
    );
  }
  return child.toOne || child.node.spread ? `${child.lateral} is not distinct from null` : `${child.lateral}.${AGGREGATE} is null`;
}

/**
 * `toTsvector`: the column is not a tsvector (text, JSON...), which PostgREST 13's full-text operators search
 * through `to_tsvector` (in the filter's language, when it names one).
 */
function conditionSql(condition: Condition, column: string, params: Parameters, toTsvector = false): string {
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
      const document = toTsvector ? `pg_catalog.to_tsvector(${language}${column})` : column;
      return `${document} @@ ${TSQUERY[operation.op]}(${language}${params.add(operation.value)})`;
    }
  }
}
