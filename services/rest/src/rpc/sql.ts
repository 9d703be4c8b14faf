import { buildReadSql, Parameters, quoteIdent, arrayLiteral, type ReadQuery, type Statement } from '../query/sql';
import type { Routine, RoutineParameter, SchemaCache } from '../schema/types';

/**
 * A call's arguments: `named` by parameter, `from` a query string or form (text values; a repeated key is
 * a list) or a POST's JSON object; or the `single` raw body for a function whose one parameter takes it whole.
 */
export type RpcArguments =
  | { kind: 'named'; from: 'query' | 'json'; values: Record<string, unknown> }
  | { kind: 'single'; body: string | Buffer };

export interface RpcRequest {
  routine: Routine;
  args: RpcArguments;
  /**
   * The URL's `select`, filters, `order`, range and count, read from the function's result as from a
   * relation. Its schema and relation are replaced by the relation the function returns (a composite
   * result embeds like that relation) or, for `returns table`, the function's own name.
   */
  query: ReadQuery;
  /** A set of rows may be written as CSV (`Accept: text/csv`); anything else is JSON. */
  format?: 'json' | 'csv';
}

/**
 * One statement calling a function: `with pgrst_source as (<call>)`, then a row of `total_result_set`,
 * `page_total` and `body` as a read has. The body is PostgREST's: a scalar's bare JSON value, a set of
 * scalars as an array, a single composite or record as an object, a set of them as an array read through
 * the read builder (so they filter, order, select and embed like the relation); void: null (the server
 * answers 204). Arguments are in named notation, each a parameter cast to its parameter's type.
 */
export function buildRpcSql(cache: SchemaCache, request: RpcRequest): Statement {
  const { routine, query } = request;
  const params = new Parameters();
  const call = `${quoteIdent(routine.schema)}.${quoteIdent(routine.name)}(${argumentsSql(routine, request.args, params)})`;
  const single = !routine.returnsSet;

  if (routine.returnKind === 'void') {
    return {
      text: `with pgrst_source as (select ${call}) select null::bigint as total_result_set, pg_catalog.count(*) as page_total, null::text as body from pgrst_source`,
      values: params.values,
    };
  }
  if (routine.returnKind === 'scalar') {
    // A single value has no range: its parameters are added only when written, or the count of values would not match.
    const limit = !single && query.range.limit !== null ? ` limit ${params.add(String(query.range.limit))}` : '';
    const offset = !single && query.range.offset > 0 ? ` offset ${params.add(String(query.range.offset))}` : '';
    const from = single ? `(select ${call} as pgrst_scalar) as pgrst_call` : `${call} as pgrst_call(pgrst_scalar)`;
    const aggregate = 'pg_catalog.json_agg(pgrst_t.pgrst_scalar)';
    const body = single ? `coalesce((${aggregate}->0)::text, 'null')` : `coalesce(${aggregate}, '[]')::text`;
    const total = query.exactCount ? '(select pg_catalog.count(*) from pgrst_source)' : 'null::bigint';
    return {
      text:
        `with pgrst_source as (select pgrst_call.pgrst_scalar from ${from}) ` +
        `select ${total} as total_result_set, pg_catalog.count(*) as page_total, ${body} as body ` +
        `from (select pgrst_scalar from pgrst_source${single ? '' : `${limit}${offset}`}) as pgrst_t`,
      values: params.values,
    };
  }
  const relation = routine.returnKind === 'composite' && routine.returnRelation
    ? routine.returnRelation
    : { schema: routine.schema, name: routine.name };
  const read = buildReadSql(cache, { ...query, schema: relation.schema, relation: relation.name }, { params, source: 'pgrst_source', format: request.format }).text;
  const outer = single
    ? `select pgrst_read.total_result_set, pgrst_read.page_total, coalesce((pgrst_read.body::json->0)::text, 'null') as body from (${read}) as pgrst_read`
    : read;
  return { text: `with pgrst_source as (select pgrst_call.* from ${call} as pgrst_call) ${outer}`, values: params.values };
}

function argumentsSql(routine: Routine, args: RpcArguments, params: Parameters): string {
  if (args.kind === 'single') {
    const [parameter] = routine.parameters;
    const value = typeof args.body === 'string' ? args.body : `\\x${args.body.toString('hex')}`;
    return `${params.add(value)}::${parameter.type}`;
  }
  return routine.parameters
    // An unnamed parameter cannot be named in a call (`"" :=` is not SQL): left out, Postgres finds no such function.
    .filter((parameter) => parameter.name !== '' && Object.hasOwn(args.values, parameter.name))
    .map((parameter) => {
      const value = argumentSql(parameter, args.values[parameter.name], args.from, params);
      return `${parameter.mode === 'variadic' ? 'variadic ' : ''}${quoteIdent(parameter.name)} := ${value}`;
    })
    .join(', ');
}

/**
 * An argument's text for its parameter's input function, as PostgREST's expansion of the arguments as a
 * JSON object into a record converts each value. From a query string (or form) every value is a JSON
 * string: a repeated key is a list, of which a non-variadic parameter takes the last, and a json/jsonb
 * parameter gets the text as a JSON string (`?j={"a":1}` is the string, not an object, as in PostgREST).
 * From a JSON body: a json/jsonb parameter takes the value's JSON text, an array parameter a JSON array
 * as an array literal, others a string as it is and anything else its JSON text. A variadic parameter
 * takes a single value as a list of one.
 */
function argumentText(parameter: RoutineParameter, value: unknown, from: 'query' | 'json'): string | null {
  if (value === null || value === undefined) return null;
  if (parameter.mode === 'variadic') return arrayText(Array.isArray(value) ? value : [value]);
  const single = from === 'query' && Array.isArray(value) ? value[value.length - 1] : value;
  if (isJsonType(parameter.type)) return JSON.stringify(single);
  if (Array.isArray(single) && parameter.type.endsWith('[]')) return arrayText(single);
  return typeof single === 'string' ? single : JSON.stringify(single);
}

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);
const isJsonType = (type: string) => type === 'json' || type === 'jsonb';

function argumentSql(parameter: RoutineParameter, raw: unknown, from: 'query' | 'json', params: Parameters): string {
  const value = argumentText(parameter, raw, from);
  if (value === null) return `null::${parameter.type}`;
  const placeholder = params.add(value);
  // A JSON object for a composite parameter: Postgres reads it into the row type by its keys.
  if (parameter.mode !== 'variadic' && isObject(raw) && !isJsonType(parameter.type)) {
    return `pg_catalog.json_populate_record(null::${parameter.type}, ${placeholder}::json)`;
  }
  return `${placeholder}::${parameter.type}`;
}

/** A Postgres array literal of JSON values: nested arrays as sub-arrays, null as NULL, objects as their JSON text. */
function arrayText(values: unknown[]): string {
  const elements = values.map((value) => {
    if (value === null || value === undefined) return 'NULL';
    if (Array.isArray(value)) return arrayText(value);
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return arrayLiteral([text]).slice(1, -1);
  });
  return `{${elements.join(',')}}`;
}

/**
 * Whether a POST body goes whole to the function's one parameter (`single` arguments): when it is unnamed,
 * or with `Prefer: params=single-object`. Otherwise the body's keys are the arguments.
 */
export const takesWholeBody = (routine: Routine, singleObject: boolean): boolean =>
  routine.parameters.length === 1 && (singleObject || routine.parameters[0].name === '');
