import type { FastifyReply, FastifyRequest } from 'fastify';
import { PostgrestError } from '../query/errors';
import { contentRange, parseRange } from '../query/range';
import type { Statement } from '../query/sql';
import { negotiate, parseQuery, queryParameters } from '../server/request';
import { applyResponseSettings, contentType, singleObject, stripNulls } from '../server/responses';
import { inRequestTransaction } from '../server/transaction';
import { buildDeleteSql, buildInsertSql, buildPutSql, buildUpdateSql, locationHeader, maxAffectedExceeded, parseColumns, putMismatch, readPayload, type Returning } from '../write';
import type { ApiRequest, RestContext } from './context';
import { readQueryOf, type BodyRow } from './read';

interface WriteRow extends BodyRow {
  location?: string | null;
  inserted?: number | string | null;
}

/** The media type of a request body, without parameters. */
export function bodyType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? 'application/json').split(';')[0]!.trim().toLowerCase();
}

/** A write's body as text: JSON only (PostgREST's other body types are not served here). */
function jsonBody(request: FastifyRequest): string {
  const type = bodyType(request);
  if (type !== 'application/json' && type !== 'application/vnd.pgrst.object+json') {
    throw new PostgrestError(415, 'PGRST107', `None of these media types are available: ${type}`);
  }
  return typeof request.body === 'string' ? request.body : '';
}

/** `Preference-Applied`: the preferences this write honoured, as PostgREST echoes them. */
function appliedPreferences(api: ApiRequest, returning: Returning | undefined): string {
  const p = api.preferences;
  return [
    returning && p.return && `return=${p.return}`,
    p.resolution && `resolution=${p.resolution}`,
    p.missing && `missing=${p.missing}`,
    p.count && `count=${p.count}`,
    p.tx && `tx=${p.tx}`,
    p.handling && `handling=${p.handling}`,
    p.maxAffected !== undefined && p.handling === 'strict' && `max-affected=${p.maxAffected}`,
  ].filter(Boolean).join(', ');
}

/**
 * POST (insert, upsert), PATCH (update), PUT (single-row upsert) and DELETE of a relation's rows: one
 * statement, in one transaction as the caller. `Prefer: return=` decides the body (none by default), a
 * single object must be exactly one row, and `max-affected` with `handling=strict` refuses (and rolls back)
 * a write of more rows.
 */
export async function writeRelation(ctx: RestContext, request: FastifyRequest, reply: FastifyReply, api: ApiRequest, relation: string): Promise<FastifyReply> {
  const method = request.method as 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  const parsed = parseQuery(queryParameters(request.raw.url ?? request.url));
  // A write's range is only what the URL says (`limit` on PATCH/DELETE): max rows caps reads, not writes.
  const query = { ...readQueryOf(api, relation, parsed, undefined), range: parseRange({ limit: parsed.limit, offset: parsed.offset }) };
  const returning: Returning = api.preferences.return ?? 'minimal';
  const media = returning === 'representation' ? negotiate(request.headers.accept, ['json', 'object', 'csv']) : { format: 'json' as const, stripNulls: false };
  const { format } = media;
  const preferences = api.preferences;
  const build = (): Statement => {
    const write = { query, returning };
    if (method === 'DELETE') return buildDeleteSql(api.cache, write);
    const payload = readPayload(jsonBody(request), parsed.columns);
    const missingDefault = preferences.missing === 'default';
    if (method === 'PATCH') return buildUpdateSql(api.cache, { ...write, payload, missingDefault });
    if (method === 'PUT') return buildPutSql(api.cache, { ...write, payload });
    return buildInsertSql(api.cache, {
      ...write,
      payload,
      missingDefault,
      resolution: preferences.resolution,
      onConflict: parsed.onConflict === undefined ? undefined : parseColumns(parsed.onConflict),
    });
  };
  const statement = build();
  const strict = preferences.handling === 'strict' && preferences.maxAffected !== undefined;
  const object = returning === 'representation' && format === 'object';
  // Checks that roll the write back when they fail, and a body made by the database, run in the transaction
  // before it commits; a write without them is one round trip.
  const { row, response } = await inRequestTransaction<WriteRow>(
    ctx.pools,
    api.ref,
    api.transaction,
    statement,
    strict || method === 'PUT' || media.stripNulls || object
      ? async (written, client) => {
          const affected = Number(written.page_total);
          // Thrown inside the transaction, so the write is rolled back.
          if (strict && affected > preferences.maxAffected!) throw maxAffectedExceeded(affected);
          if (method === 'PUT' && affected !== 1) throw putMismatch();
          if (media.stripNulls) written.body = await stripNulls(client, written.body);
          if (object) written.body = singleObject(written.body ?? '[]', affected);
          return written;
        }
      : undefined,
  );
  const rows = Number(row.page_total);
  const body = row.body;
  // A write's count (`Prefer: count=exact`) is the rows it affected.
  const total = api.preferences.count ? rows : null;
  const applied = appliedPreferences(api, api.preferences.return);
  if (applied) reply.header('preference-applied', applied);
  if (method === 'POST' && row.location) reply.header('location', locationHeader(relation, row.location));
  const inserted = Number(row.inserted ?? 0);
  // PostgREST 12: an insert is 201, an upsert that only updated 200; a PUT 201 or 200 by the same rule
  // with a body, 204 without; PATCH and DELETE 200 with a body, 204 without.
  const upsert = method === 'PUT' || (method === 'POST' && preferences.resolution === 'merge-duplicates');
  const created = method === 'POST' ? !upsert || inserted > 0 : method === 'PUT' && inserted > 0;
  const range = method === 'PATCH' && returning === 'representation' ? contentRange(0, rows, total) : `*/${total ?? '*'}`;
  reply.header('content-range', range);
  if (returning === 'representation') {
    reply.status(created ? 201 : 200).type(contentType(media));
    applyResponseSettings(reply, response);
    return reply.send(body ?? '[]');
  }
  reply.status(method === 'POST' ? (created ? 201 : 200) : 204);
  applyResponseSettings(reply, response);
  return reply.send();
}
