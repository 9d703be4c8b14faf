import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, type DataApiSettingsResolver, type ProjectDataApiSettings, type ProjectPools } from '@dash/service-kit';
import { PostgrestError } from '../query/errors';
import type { SchemaCache } from '../schema/types';
import { toPostgrestError } from '../server/errors';
import { apiCaller, type ApiCaller } from '../server/identity';
import { parsePreferences, requestCookies, requestHeaders, requestSchema, type Preferences } from '../server/request';
import { sendPostgrestError } from '../server/responses';
import type { SchemaStore } from '../server/schema-store';
import type { RequestSettings } from '../server/transaction';

export interface RestContext {
  /** Pools of the projects' `api` login role. */
  pools: ProjectPools;
  settings: DataApiSettingsResolver;
  schemas: SchemaStore;
}

/** Everything a data API request resolved before its statement: who, where, with which settings and cache. */
export interface ApiRequest {
  ref: string;
  settings: ProjectDataApiSettings;
  caller: ApiCaller;
  schema: string;
  preferences: Preferences;
  cache: SchemaCache;
  /** The transaction's settings (role, claims, request.*), read-only for GET and HEAD. */
  transaction: RequestSettings;
}

/** Codes of names the schema cache does not hold: the cache is reloaded once in case DDL just happened. */
const MISSES = new Set(['PGRST200', 'PGRST202', 'PGRST205']);

/** A dashboard-side failure (unknown project, platform unreachable) in PostgREST's error shape. */
function platformError(error: HttpError): PostgrestError {
  return new PostgrestError(error.statusCode, error.statusCode === 404 ? 'PGRST000' : 'PGRST002', error.message);
}

/**
 * Runs one data API request: resolves the caller, schema and cache, runs `work` (which writes the reply),
 * retries once on a fresh cache when a name was missing, and answers any failure in PostgREST's error shape.
 */
export async function serveApiRequest(
  ctx: RestContext,
  request: FastifyRequest,
  reply: FastifyReply,
  apiPath: string,
  work: (api: ApiRequest) => Promise<unknown>,
): Promise<unknown> {
  const { ref } = request.params as { ref: string };
  let authenticated = false;
  try {
    const settings = await ctx.settings(ref);
    const caller = apiCaller(request.headers, settings.jwtSecret);
    authenticated = caller.authenticated;
    request.apiCallerRole = caller.role;
    const schema = requestSchema(request.headers, request.method, settings.dataApi.schemas);
    const preferences = parsePreferences(request.headers);
    const readOnly = request.method === 'GET' || request.method === 'HEAD';
    const api: ApiRequest = {
      ref,
      settings,
      caller,
      schema,
      preferences,
      cache: await ctx.schemas.get(ref, settings.dataApi.schemas),
      transaction: {
        caller,
        method: request.method,
        path: apiPath,
        headers: requestHeaders(request.headers),
        cookies: requestCookies(request.headers.cookie),
        searchPath: [schema, ...settings.dataApi.extraSearchPath.filter((s) => s !== schema)],
        preRequest: settings.dataApi.preRequest,
        readOnly,
        rollback: preferences.tx === 'rollback',
      },
    };
    try {
      return await work(api);
    } catch (error) {
      if (!(error instanceof PostgrestError) || !MISSES.has(error.code)) throw error;
      const fresh = await ctx.schemas.reloadAfterMiss(ref, settings.dataApi.schemas);
      if (!fresh) throw error;
      return await work({ ...api, cache: fresh });
    }
  } catch (error) {
    if (error instanceof HttpError) return sendPostgrestError(reply, platformError(error));
    const postgrestError = toPostgrestError(error, authenticated);
    if (postgrestError.status >= 500) request.log.warn({ err: error }, 'data API request failed');
    return sendPostgrestError(reply, postgrestError);
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The database role a data API request ran as (for its postgrest_logs event). */
    apiCallerRole?: string;
  }
}
