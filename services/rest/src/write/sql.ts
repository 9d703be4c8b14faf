import { randomUUID } from 'node:crypto';
import { quoteLiteral } from '@dash/contracts';
import { PostgrestError } from '../query/errors';
import { buildReadSql, fieldSql, Parameters, quoteIdent, treeSql, type ReadQuery, type Statement } from '../query/sql';
import type { Filter } from '../query/types';
import { findRelationship } from '../schema/relationships';
import { relationKey, type Column, type Relation, type SchemaCache } from '../schema/types';
import type { JsonPayload } from './payload';

/** `Prefer: return=`: `minimal` and `headers-only` answer no body (the latter a `Location` for an insert). */
export type Returning = 'minimal' | 'headers-only' | 'representation';

/**
 * What every write takes. `query` is the request read as a read of the relation: its top-level filters
 * choose the rows a PATCH/DELETE changes (PUT: the key), its `select`, `order` and embedded filters shape
 * the `return=representation` body, read from the changed rows.
 */
export interface WriteRequest {
  query: ReadQuery;
  returning: Returning;
}

export interface InsertRequest extends WriteRequest {
  payload: JsonPayload;
  /** `Prefer: missing=default`: a column an object lacks takes its default instead of null. */
  missingDefault?: boolean;
  /** `Prefer: resolution=`: an upsert on `onConflict` (default: the primary key). */
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  /** `on_conflict=`. */
  onConflict?: string[];
}

export interface UpdateRequest extends WriteRequest {
  payload: JsonPayload;
  missingDefault?: boolean;
}

/**
 * One write statement. Its single row has `total_result_set` (always null), `page_total` (the rows
 * written, or read back for `return=representation`: the count `max-affected` and `Content-Range` use),
 * `body` (the representation's JSON text, else null), `location` (for a `headers-only` insert of one row
 * into a table with a primary key: a JSON object of the key's values, see `locationHeader`) and `inserted`
 * (for a merge upsert or PUT: how many rows were inserted rather than updated, 201 against 200).
 */
export type WriteStatement = Statement;

const NO_BODY = 'select null::bigint as total_result_set, pg_catalog.count(*) as page_total, null::text as body from pgrst_source';
const INSERTED_SETTING = quoteLiteral('pgrst.inserted');

/** `POST /relation`: insert, or upsert with `resolution`. */
export function buildInsertSql(cache: SchemaCache, request: InsertRequest): WriteStatement {
  const relation = findRelation(cache, request.query);
  const params = new Parameters();
  const columns = payloadColumns(relation, request.payload.keys);
  const conflict = request.resolution === undefined ? [] : request.onConflict ?? relation.primaryKey;
  const merge = request.resolution === 'merge-duplicates' && conflict.length > 0;
  const location = request.returning === 'headers-only' && relation.primaryKey.length > 0;
  const counter = merge ? insertedCounter(params) : null;
  const mutation = insertSql(relation, columns, request, params, {
    where: counter ? [counter.increment] : [],
    conflict,
    onUpdate: counter?.decrement ?? null,
    returning: returningSql(cache, relation, request),
  });
  return wrap(cache, request, mutation, params, { location, inserted: counter?.total ?? null });
}

/**
 * `PUT /relation?pk=eq.x`: an upsert of one row whose key must be the URL's. The filters must be `eq` on
 * every primary key column and nothing else (PGRST105); the body's key values are checked against them in
 * the statement, so a mismatch writes nothing and `page_total` is not 1: the server then answers PGRST115
 * (`putMismatch`).
 */
export function buildPutSql(cache: SchemaCache, request: UpdateRequest): WriteStatement {
  const relation = findRelation(cache, request.query);
  const { query } = request;
  if (query.range.limit !== null || query.range.offset > 0) {
    throw new PostgrestError(400, 'PGRST114', 'limit/offset querystring parameters are not allowed for PUT');
  }
  // As PostgREST compares the filtered names as a set: a repeated `id=eq.1` is fine, `actors.id=eq.1` is not.
  const keyFilters = query.filters;
  const filtered = new Set(keyFilters.map(({ embedPath, tree }) => (tree.kind === 'condition' ? [...embedPath, tree.field.name].join('.') : '')));
  const isKeyEq = keyFilters.every(({ tree }) =>
    tree.kind === 'condition' && !tree.negated && tree.field.jsonPath.length === 0 &&
    tree.operation.kind === 'compare' && tree.operation.op === 'eq' && tree.operation.quantifier === undefined);
  const pk = relation.primaryKey;
  if (pk.length === 0 || !isKeyEq || filtered.size !== pk.length || !pk.every((name) => filtered.has(name))) {
    throw new PostgrestError(405, 'PGRST105', "Filters must include all and only primary key columns with 'eq' operators");
  }
  if (!pk.every((name) => request.payload.keys.includes(name))) throw putMismatch();
  const params = new Parameters();
  const columns = payloadColumns(relation, request.payload.keys);
  const counter = insertedCounter(params);
  const mutation = insertSql(relation, columns, { ...request, missingDefault: false }, params, {
    where: [...keyFilters.map(({ tree }) => treeSql(tree, (field) => fieldSql('pgrst_body', field), params)), counter.increment],
    conflict: pk,
    onUpdate: counter.decrement,
    returning: returningSql(cache, relation, request),
  });
  return wrap(cache, { ...request, query: { ...query, filters: [] } }, mutation, params, { location: false, inserted: counter.total });
}

/** `PATCH /relation?filters`: sets the body's keys (one object; of an array, the first) on the filtered rows. */
export function buildUpdateSql(cache: SchemaCache, request: UpdateRequest): WriteStatement {
  const relation = findRelation(cache, request.query);
  const params = new Parameters();
  const columns = payloadColumns(relation, request.payload.keys);
  const target = targetSql(relation);
  const returning = returningSql(cache, relation, request);
  if (columns.length === 0) {
    // `update ... set` needs a column: an empty body changes nothing, and answers no rows.
    return wrap(cache, request, `select ${returning} from ${target} where false`, params, { location: false, inserted: null });
  }
  const body = bodySql(relation, columns, request.payload, params, { defaults: request.missingDefault ?? false, first: true });
  const assignments = columns.map((column) => `${quoteIdent(column.name)} = pgrst_body.${quoteIdent(column.name)}`);
  const where = rowsSql(relation, request.query, params);
  return wrap(cache, request, `update ${target} set ${assignments.join(', ')} from ${body}${where} returning ${returning}`, params, { location: false, inserted: null });
}

/** `DELETE /relation?filters`. */
export function buildDeleteSql(cache: SchemaCache, request: WriteRequest): WriteStatement {
  const relation = findRelation(cache, request.query);
  const params = new Parameters();
  const where = rowsSql(relation, request.query, params);
  const returning = returningSql(cache, relation, request);
  return wrap(cache, request, `delete from ${targetSql(relation)}${where} returning ${returning}`, params, { location: false, inserted: null });
}

/** PGRST115: a PUT whose body's key is not the URL's (or that wrote no row). */
export const putMismatch = () => new PostgrestError(400, 'PGRST115', 'Payload values do not match URL in primary key column(s)');

/** PGRST124: `Prefer: max-affected=N` with `handling=strict`, exceeded (the server rolls the write back). */
export const maxAffectedExceeded = (affected: number) =>
  new PostgrestError(400, 'PGRST124', 'Query result exceeds max-affected preference constraint', `The query affects ${affected} rows`);

/** PostgREST's `Location` for an inserted row: `/relation?pk=eq.value` (`is.null` for a null key value). */
export function locationHeader(relation: string, location: string): string {
  const key = JSON.parse(location) as Record<string, string | null>;
  const encode = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');
  const query = Object.entries(key).map(([name, value]) => `${encode(name)}=${encode(value === null ? 'is.null' : `eq.${value}`)}`);
  return `/${relation}?${query.join('&')}`;
}

function findRelation(cache: SchemaCache, query: ReadQuery): Relation {
  const relation = cache.relations.get(relationKey(query.schema, query.relation));
  if (!relation) {
    throw new PostgrestError(404, 'PGRST205', `Could not find the table '${query.schema}.${query.relation}' in the schema cache`);
  }
  return relation;
}

/** The written columns, in the body's order; a key the relation lacks is PostgREST's PGRST204. */
function payloadColumns(relation: Relation, keys: string[]): Column[] {
  return keys.map((key) => {
    const column = relation.columns.find((candidate) => candidate.name === key);
    if (!column) throw new PostgrestError(400, 'PGRST204', `Could not find the '${key}' column of '${relation.name}' in the schema cache`);
    return column;
  });
}

const targetSql = (relation: Relation) => `${quoteIdent(relation.schema)}.${quoteIdent(relation.name)}`;

/**
 * What the mutation returns: `1` when only counted; for a representation the relation's columns the read
 * needs (so a role granted SELECT on some columns only can write and read those back, as with PostgREST):
 * the selected and ordered columns and an embed's key columns, or the whole row for `*` and for a computed
 * column or relationship (a function of the row); for a Location, the primary key.
 */
function returningSql(cache: SchemaCache, relation: Relation, request: WriteRequest): string {
  const all = `${quoteIdent(relation.name)}.*`;
  if (request.returning === 'minimal') return '1';
  const names = new Set<string>();
  const isColumn = (name: string) => relation.columns.some((column) => column.name === name);
  if (request.returning === 'headers-only') relation.primaryKey.forEach((name) => names.add(name));
  else {
    const { select, order } = request.query;
    for (const node of select) {
      if (node.kind === 'star') return all;
      if (node.kind === 'embed') {
        const keys = embedKeys(cache, relation, node.relation, node.hint);
        if (keys === null) return all;
        keys.forEach((name) => names.add(name));
        continue;
      }
      if (node.field === undefined) continue;
      if (!isColumn(node.field.name)) return all;
      names.add(node.field.name);
    }
    for (const term of order) {
      if (term.relation !== undefined) continue;
      if (!isColumn(term.field.name)) return all;
      names.add(term.field.name);
    }
  }
  return names.size === 0 ? '1' : [...names].map((name) => `${quoteIdent(relation.name)}.${quoteIdent(name)}`).join(', ');
}

/** The relation's columns an embed joins on; null for a computed relationship, which takes the whole row. */
function embedKeys(cache: SchemaCache, relation: Relation, target: string, hint: string | undefined): string[] | null {
  const found = findRelationship(cache, relation.schema, relation.name, target, hint);
  if (found.kind === 'computed') return null;
  if (found.kind === 'many-to-many') return found.junction.sourceColumns.map(([origin]) => origin);
  return found.columns.map(([own]) => own);
}

/**
 * Counts the rows an upsert inserted rather than updated (201 against 200) in a setting of the transaction:
 * +1 for every row offered to the insert, -1 for every one that updated instead. The setting holds a token
 * of this statement before the count, so a count left by an earlier statement of the same transaction
 * reads as 0. `is not null` is always true: it only makes Postgres call `set_config` once per row.
 */
function insertedCounter(params: Parameters): { increment: string; decrement: string; total: string } {
  const token = `${params.add(randomUUID())}::text`;
  const setting = `coalesce(pg_catalog.current_setting(${INSERTED_SETTING}, true), '')`;
  const total = `case when pg_catalog.split_part(${setting}, ':', 1) = ${token} then pg_catalog.split_part(${setting}, ':', 2)::int else 0 end`;
  const step = (sign: string) => `pg_catalog.set_config(${INSERTED_SETTING}, ${token} || ':' || (${total} ${sign} 1)::text, true) is not null`;
  return { increment: step('+'), decrement: step('-'), total };
}

interface InsertParts {
  where: string[];
  conflict: string[];
  /** Merge: the condition of `do update` (the inserted counter's decrement); null: `do nothing`. */
  onUpdate: string | null;
  returning: string;
}

function insertSql(relation: Relation, columns: Column[], request: UpdateRequest | InsertRequest, params: Parameters, parts: InsertParts): string {
  const names = columns.map((column) => quoteIdent(column.name));
  const body = bodySql(relation, columns, request.payload, params, { defaults: request.missingDefault ?? false, first: false });
  const where = parts.where.length > 0 ? ` where ${parts.where.join(' and ')}` : '';
  let conflict = '';
  if (parts.conflict.length > 0) {
    const target = `on conflict (${parts.conflict.map(quoteIdent).join(', ')})`;
    conflict = parts.onUpdate !== null && names.length > 0
      ? ` ${target} do update set ${names.map((name) => `${name} = excluded.${name}`).join(', ')} where ${parts.onUpdate}`
      : ` ${target} do nothing`;
  }
  return (
    `insert into ${targetSql(relation)}${names.length > 0 ? ` (${names.join(', ')})` : ''} ` +
    `select ${names.map((name) => `pgrst_body.${name}`).join(', ')} from ${body}${where}${conflict} returning ${parts.returning}`
  );
}

/**
 * The body as rows (`... as pgrst_body`), one column per written column, typed as the relation's column:
 * Postgres' JSON-to-record expansion converts each value as its input function would (JSON arrays into
 * arrays, objects into json/jsonb or composites). With defaults, a key an object lacks takes the column's
 * default, evaluated only for that row (so a sequence is not advanced for rows that carry their own id).
 */
function bodySql(relation: Relation, columns: Column[], payload: JsonPayload, params: Parameters, options: { defaults: boolean; first: boolean }): string {
  const value = params.add(payload.text);
  const limit = options.first ? ' limit 1' : '';
  if (columns.length === 0) {
    // `{}` is one row of defaults, `[{}, {}]` two: rows with no columns.
    const rows = payload.object ? `pg_catalog.json_build_array(${value}::json)` : `${value}::json`;
    return `(select from pg_catalog.json_array_elements(${rows})${limit}) as pgrst_body`;
  }
  const definitions = columns.map((column) => `${quoteIdent(column.name)} ${column.type}`).join(', ');
  if (!options.defaults) {
    const rows = payload.object ? `pg_catalog.json_build_array(${value}::json)` : `${value}::json`;
    return `(select * from pg_catalog.json_to_recordset(${rows}) as pgrst_fields(${definitions})${limit}) as pgrst_body`;
  }
  const rows = payload.object ? `pg_catalog.jsonb_build_array(${value}::jsonb)` : `${value}::jsonb`;
  const values = columns.map((column) => {
    const name = quoteIdent(column.name);
    const fallback = defaultSql(relation, column);
    return fallback === null
      ? `pgrst_fields.${name}`
      : `case when pgrst_row.value ? ${quoteLiteral(column.name)} then pgrst_fields.${name} else (${fallback})::${column.type} end as ${name}`;
  });
  return (
    `(select ${values.join(', ')} from pg_catalog.jsonb_array_elements(${rows}) as pgrst_row, ` +
    `pg_catalog.jsonb_to_record(pgrst_row.value) as pgrst_fields(${definitions})${limit}) as pgrst_body`
  );
}

/**
 * A column's default as an expression: the catalog's text (trusted: it comes from the schema cache, not
 * the client), or a `by default` identity's sequence. As in PostgREST, an `always` identity has none (it
 * refuses any written value) and a generated column is never written.
 */
function defaultSql(relation: Relation, column: Column): string | null {
  if (column.default !== null) return column.default;
  if (column.identity !== 'by_default') return null;
  const table = quoteLiteral(`${quoteIdent(relation.schema)}.${quoteIdent(relation.name)}`);
  return `pg_catalog.nextval(pg_catalog.pg_get_serial_sequence(${table}, ${quoteLiteral(column.name)})::regclass)`;
}

/**
 * The WHERE of an update or delete: the URL's top-level filters, and with `limit`/`offset` (which need an
 * `order`, PGRST109) only the rows that order and range choose. A table's rows are told apart by `ctid`
 * (with `tableoid` across a partitioned table's partitions); a view has neither, so its rows are those
 * matching the chosen rows' order columns, as PostgREST does (hence its hint: order by unique columns).
 */
function rowsSql(relation: Relation, query: ReadQuery, params: Parameters): string {
  const table = quoteIdent(relation.name);
  const conditions = query.filters
    .filter((filter) => filter.embedPath.length === 0)
    .map((filter) => treeSql(filter.tree, (field) => fieldSql(table, field), params));
  const where = conditions.length > 0 ? ` where ${conditions.join(' and ')}` : '';
  if (query.range.limit === null && query.range.offset === 0) return where;
  const terms = query.order.filter((term) => term.relation === undefined);
  if (terms.length === 0) {
    throw new PostgrestError(400, 'PGRST109', "A 'limit' was applied without an explicit 'order'", null, "Apply an 'order' using unique column(s)");
  }
  const order = terms.map((term) => [fieldSql(table, term.field), term.direction, term.nulls && `nulls ${term.nulls}`].filter(Boolean).join(' '));
  const limit = query.range.limit !== null ? ` limit ${params.add(String(query.range.limit))}` : '';
  const offset = query.range.offset > 0 ? ` offset ${params.add(String(query.range.offset))}` : '';
  const identity = relation.kind === 'table' ? ['ctid']
    : relation.kind === 'partitioned_table' ? ['tableoid', 'ctid']
      : [...new Set(terms.map((term) => quoteIdent(term.field.name)))];
  const columns = identity.map((name) => `${table}.${name}`).join(', ');
  return ` where (${columns}) in (select ${columns} from ${targetSql(relation)}${where} order by ${order.join(', ')}${limit}${offset})`;
}

const embeddedFilters = (filters: Filter[]) => filters.filter((filter) => filter.embedPath.length > 0);

/**
 * The statement around a mutation: `with pgrst_source as (<mutation>)`, read back through the read
 * builder for `return=representation` (so `select`, embedding, `order` behave as on a read), else counted.
 */
function wrap(cache: SchemaCache, request: WriteRequest, mutation: string, params: Parameters, extra: { location: boolean; inserted: string | null }): WriteStatement {
  const { query } = request;
  const read = request.returning === 'representation'
    ? buildReadSql(cache, {
      ...query, filters: embeddedFilters(query.filters), range: { offset: 0, limit: null }, exactCount: false,
    }, { params, source: 'pgrst_source' }).text
    : NO_BODY;
  const relation = findRelation(cache, query);
  const location = extra.location
    ? `case when pgrst_read.page_total = 1 then (select pg_catalog.json_build_object(${relation.primaryKey
      .map((name) => `${quoteLiteral(name)}, pg_catalog.to_json(pgrst_source.${quoteIdent(name)}) #>> '{}'`)
      .join(', ')})::text from pgrst_source) end`
    : 'null::text';
  const inserted = extra.inserted ?? 'null::int';
  return {
    text:
      `with pgrst_source as (${mutation}) ` +
      `select pgrst_read.total_result_set, pgrst_read.page_total, pgrst_read.body, ${location} as location, ${inserted} as inserted ` +
      `from (${read}) as pgrst_read`,
    values: params.values,
  };
}
