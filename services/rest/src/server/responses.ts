import type { FastifyReply } from 'fastify';
import type { PoolClient } from 'pg';
import { PostgrestError } from '../query/errors';
import type { ResponseFormat, ResponseMedia } from './request';
import type { ResponseSettings } from './transaction';

export const CONTENT_TYPES: Record<ResponseFormat, string> = {
  json: 'application/json; charset=utf-8',
  object: 'application/vnd.pgrst.object+json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

/** The Content-Type of a response: a stripped one names its parameter, as PostgREST's does. */
export function contentType(media: ResponseMedia): string {
  if (!media.stripNulls) return CONTENT_TYPES[media.format];
  return `application/vnd.pgrst.${media.format === 'object' ? 'object' : 'array'}+json; nulls=stripped; charset=utf-8`;
}

/**
 * `nulls=stripped`: the JSON body without its objects' null-valued fields, at every depth (nulls in arrays
 * stay), as Postgres's json_strip_nulls leaves them; run by Postgres so numbers keep their exact text.
 */
export async function stripNulls(client: PoolClient, body: string | null): Promise<string | null> {
  if (body === null) return null;
  const { rows } = await client.query<{ body: string }>('select pg_catalog.json_strip_nulls($1::json)::text as body', [body]);
  return rows[0]!.body;
}

/**
 * The body of an `application/vnd.pgrst.object+json` response: the one row of the JSON array the statement
 * made. Not exactly one row is PGRST116 (406), as PostgREST answers.
 */
export function singleObject(body: string, rows: number): string {
  if (rows !== 1) {
    throw new PostgrestError(406, 'PGRST116', 'JSON object requested, multiple (or no) rows returned', `The result contains ${rows} rows`);
  }
  // json_agg writes `[` + the element + `]`: the element is what is between them.
  return body.slice(body.indexOf('[') + 1, body.lastIndexOf(']')).trim();
}

/** What a function or policy set for the response (`response.headers`, `response.status`) goes onto the reply. */
export function applyResponseSettings(reply: FastifyReply, settings: ResponseSettings): void {
  for (const [name, value] of settings.headers) reply.header(name, value);
  if (settings.status !== null) reply.status(settings.status);
}

/** PostgREST's error body. */
export function sendPostgrestError(reply: FastifyReply, error: PostgrestError): FastifyReply {
  return reply.status(error.status).type('application/json; charset=utf-8').send(JSON.stringify(error.toJSON()));
}
