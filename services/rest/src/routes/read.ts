import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PoolClient } from 'pg';
import { PostgrestError } from '../query/errors';
import { contentRange, parseRange } from '../query/range';
import { buildCountPlanSql, buildReadSql, type ReadQuery } from '../query/sql';
import { negotiate, parseQuery, queryParameters, type ParsedQuery } from '../server/request';
import { applyResponseSettings, contentType, singleObject, stripNulls } from '../server/responses';
import { inRequestTransaction } from '../server/transaction';
import type { ApiRequest, RestContext } from './context';

/** A statement's one row: the body (JSON or CSV text), its row count and the total when counted. */
export interface BodyRow {
  body: string | null;
  page_total: string | number;
  total_result_set: string | number | null;
}

/** The read a relation's query string asks for (also the representation a write returns). */
export function readQueryOf(api: ApiRequest, relation: string, parsed: ParsedQuery, rangeHeader: string | undefined): ReadQuery {
  const { dataApi } = api.settings;
  return {
    schema: api.schema,
    relation,
    select: parsed.select,
    filters: parsed.filters,
    order: parsed.order,
    range: parseRange({ limit: parsed.limit, offset: parsed.offset, header: rangeHeader, maxRows: dataApi.maxRows }),
    embedded: [...parsed.embeds].map(([path, modifiers]) => ({
      path: path.split('.'),
      order: modifiers.order,
      range: modifiers.limit === undefined && modifiers.offset === undefined ? undefined : parseRange({ limit: modifiers.limit, offset: modifiers.offset }),
    })),
    exactCount: api.preferences.count === 'exact',
    aggregatesEnabled: dataApi.aggregatesEnabled,
  };
}

/** `Range: 0-9` counts only with `Range-Unit: items` (or none), as PostgREST reads it. */
export function rangeHeaderOf(request: FastifyRequest): string | undefined {
  const unit = request.headers['range-unit'];
  if (unit !== undefined && String(unit).toLowerCase() !== 'items') return undefined;
  return typeof request.headers.range === 'string' ? request.headers.range : undefined;
}

/**
 * Status and `Content-Range` of a read, as PostgREST gives them: 206 when a counted total holds more rows
 * than the page, 416 (PGRST103) when the page starts past the total.
 */
export function readStatus(offset: number, rows: number, total: number | null): { status: number; range: string } {
  if (total !== null && offset > 0 && offset >= total && rows === 0) {
    throw new PostgrestError(416, 'PGRST103', 'Requested range not satisfiable', `An offset of ${offset} was requested, but there are only ${total} rows.`);
  }
  const partial = total !== null && rows < total;
  return { status: partial ? 206 : 200, range: contentRange(offset, rows, total) };
}

/**
 * `Prefer: count=planned`: the planner's estimate of the filtered rows; `estimated`: the same, unless it is
 * below max rows, where an exact count is cheap enough (PostgREST's rule). Null when no count was asked.
 */
async function plannedCount(client: PoolClient, api: ApiRequest, query: ReadQuery): Promise<number | null> {
  const count = api.preferences.count;
  if (count !== 'planned' && count !== 'estimated') return null;
  const plan = buildCountPlanSql(api.cache, query);
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(plan.text, plan.values);
  const estimate = rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0;
  if (count === 'planned' || estimate > api.settings.dataApi.maxRows) return estimate;
  const exact = buildReadSql(api.cache, { ...query, exactCount: true, range: { offset: 0, limit: 0 } });
  const counted = (await client.query<BodyRow>(exact.text, exact.values)).rows[0]!;
  return Number(counted.total_result_set);
}

/** GET and HEAD of a table, view, materialized view or foreign table. */
export async function readRelation(ctx: RestContext, request: FastifyRequest, reply: FastifyReply, api: ApiRequest, relation: string): Promise<FastifyReply> {
  const media = negotiate(request.headers.accept);
  const { format } = media;
  const query = readQueryOf(api, relation, parseQuery(queryParameters(request.raw.url ?? request.url)), rangeHeaderOf(request));
  const statement = buildReadSql(api.cache, query, { format: format === 'csv' ? 'csv' : 'json' });
  // Stripped nulls and a planned count take more queries in the transaction; a plain read is one round trip.
  const planning = api.preferences.count === 'planned' || api.preferences.count === 'estimated';
  let planned: number | null = null;
  const { row, response } = await inRequestTransaction<BodyRow>(
    ctx.pools,
    api.ref,
    api.transaction,
    statement,
    media.stripNulls || planning
      ? async (read, client) => {
          if (media.stripNulls) read.body = await stripNulls(client, read.body);
          planned = await plannedCount(client, api, query);
          return read;
        }
      : undefined,
  );
  const rows = Number(row.page_total);
  const total = row.total_result_set === null ? planned : Number(row.total_result_set);
  const { status, range } = readStatus(query.range.offset, rows, total);
  const body = format === 'object' ? singleObject(row.body ?? '[]', rows) : row.body ?? (format === 'csv' ? '' : '[]');
  reply.status(status).header('content-range', range).type(contentType(media));
  applyResponseSettings(reply, response);
  return request.method === 'HEAD' ? reply.send() : reply.send(body);
}
