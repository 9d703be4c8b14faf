import type { FastifyReply, FastifyRequest } from 'fastify';
import { PostgrestError } from '../query/errors';
import { relationKey } from '../schema/types';
import { buildRpcSql, callIsReadOnly, resolveRoutine, takesWholeBody, type RpcArguments } from '../rpc';
import { negotiate, parseQuery, queryParameters } from '../server/request';
import { applyResponseSettings, contentType, singleObject, stripNulls } from '../server/responses';
import { inRequestTransaction } from '../server/transaction';
import type { ApiRequest, RestContext } from './context';
import { readQueryOf, readStatus, rangeHeaderOf, type BodyRow } from './read';
import { bodyType } from './write';

/** A POST's JSON body as named arguments: an object's keys (anything else is PGRST102). */
function jsonArguments(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new PostgrestError(400, 'PGRST102', 'Empty or invalid json');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PostgrestError(400, 'PGRST102', 'Empty or invalid json');
  return value as Record<string, unknown>;
}

/**
 * `/rpc/<fn>` by GET, HEAD or POST. By GET the query parameters naming one of the function's parameters are
 * its arguments (a repeated one a list, for variadic) and the others filter its result; by POST the JSON
 * body's keys are (or a function's one unnamed parameter takes the whole body). GET and HEAD, and POST of a
 * stable or immutable function, run read-only: a volatile function by GET fails as PostgREST's does (405).
 */
export async function callFunction(ctx: RestContext, request: FastifyRequest, reply: FastifyReply, api: ApiRequest, name: string): Promise<FastifyReply> {
  const method = request.method as 'GET' | 'HEAD' | 'POST';
  const overloads = api.cache.routines.get(relationKey(api.schema, name)) ?? [];
  const parameterNames = new Set(overloads.flatMap((routine) => routine.parameters.map((p) => p.name)).filter(Boolean));
  const byQuery = method !== 'POST';
  const parsed = parseQuery(queryParameters(request.raw.url ?? request.url), (key) => byQuery && parameterNames.has(key));
  const requestType = bodyType(request);
  const text = typeof request.body === 'string' ? request.body : '';
  let argumentNames: string[];
  let named: Record<string, unknown> = {};
  if (byQuery) {
    for (const [key, value] of parsed.rest) {
      const previous = named[key];
      named[key] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
    }
    argumentNames = Object.keys(named);
  } else {
    named = requestType === 'application/json' ? jsonArgumentsOrEmpty(text) : {};
    argumentNames = Object.keys(named);
  }
  const routine = resolveRoutine(api.cache, api.schema, name, argumentNames, { method, contentType: byQuery ? undefined : requestType, singleObject: false });
  const args: RpcArguments = !byQuery && takesWholeBody(routine, false)
    ? { kind: 'single', body: text }
    : { kind: 'named', from: byQuery ? 'query' : 'json', values: named };
  // CSV is a table's format: only a function returning a set of rows can be written as CSV.
  const tabular = routine.returnsSet && (routine.returnKind === 'composite' || routine.returnKind === 'record');
  const media = negotiate(request.headers.accept, tabular ? ['json', 'object', 'csv'] : ['json', 'object']);
  const { format } = media;
  const query = readQueryOf(api, name, parsed, rangeHeaderOf(request));
  const statement = buildRpcSql(api.cache, { routine, args, query, format: format === 'csv' ? 'csv' : 'json' });
  const transaction = { ...api.transaction, readOnly: callIsReadOnly(routine, method) };
  const { row: result, response } = await inRequestTransaction<BodyRow>(
    ctx.pools,
    api.ref,
    transaction,
    statement,
    media.stripNulls
      ? async (row, client) => {
          row.body = await stripNulls(client, row.body);
          return row;
        }
      : undefined,
  );
  const rows = Number(result.page_total);
  reply.type(contentType(media));
  applyResponseSettings(reply, response);
  if (routine.returnKind === 'void') {
    if (response.status === null) reply.status(204);
    return reply.send();
  }
  if (routine.returnsSet) {
    const total = result.total_result_set === null ? null : Number(result.total_result_set);
    const { status, range } = readStatus(query.range.offset, rows, total);
    if (response.status === null) reply.status(status);
    reply.header('content-range', range);
  }
  const body = format === 'object' && routine.returnsSet ? singleObject(result.body ?? '[]', rows) : result.body ?? 'null';
  return method === 'HEAD' ? reply.send() : reply.send(body);
}

/** A POST body that is not a JSON object may still be a single unnamed parameter's whole value: no names then. */
function jsonArgumentsOrEmpty(text: string): Record<string, unknown> {
  try {
    return jsonArguments(text);
  } catch (error) {
    if (text.trim().startsWith('{')) throw error;
    return {};
  }
}
