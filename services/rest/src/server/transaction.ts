import type pg from 'pg';
import { quoteIdent, quoteLiteral } from '@dash/contracts';
import { connectProject, isConnectionFailure, type ProjectPools } from '@dash/service-kit';
import type { ApiCaller } from './identity';

/** What PostgREST tells the database about the request, for policies and functions to read. */
export interface RequestSettings {
  caller: ApiCaller;
  method: string;
  /** The path after the API's base, as PostgREST's `request.path` (`/todos`, `/rpc/fn`). */
  path: string;
  headers: Record<string, string>;
  cookies: Record<string, string>;
  /** The request's schema first, then Settings → API's extra search path. */
  searchPath: string[];
  /** Settings → API's pre-request function (`schema.name` or `name`), run first in the transaction. */
  preRequest: string | null;
  /** GET and HEAD run in a read-only transaction, as PostgREST's do (a volatile function then fails: 405). */
  readOnly: boolean;
  /** `Prefer: tx=rollback`: the transaction is rolled back after the response is made. */
  rollback: boolean;
}

/** What a function or policy set for the response: `response.headers` (a JSON array of objects) and `response.status`. */
export interface ResponseSettings {
  headers: Array<[string, string]>;
  status: number | null;
}

/** Claim names PostgREST also sets one by one (`request.jwt.claim.sub`): only names a setting may carry. */
const CLAIM_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** `schema.name` → `"schema"."name"`; a bare name stays on the search path. */
export function qualifiedFunction(name: string): string {
  const dot = name.indexOf('.');
  return dot === -1 ? quoteIdent(name) : `${quoteIdent(name.slice(0, dot))}.${quoteIdent(name.slice(dot + 1))}`;
}

/**
 * The first round trip of every request: the transaction, the caller's role and the request's settings,
 * all local to the transaction (so a pooled connection keeps none of them). One simple query, every value a
 * quoted literal. `set_config('role', …)` refuses a role the `api` login role is not a member of (42501).
 */
export function beginSql(settings: RequestSettings): string {
  const config = (name: string, value: string) => `pg_catalog.set_config(${quoteLiteral(name)}, ${quoteLiteral(value)}, true)`;
  const { caller } = settings;
  const calls = [
    config('search_path', settings.searchPath.map(quoteIdent).join(', ')),
    config('role', caller.role),
    config('request.jwt.claims', JSON.stringify(caller.claims)),
    config('request.method', settings.method),
    config('request.path', settings.path),
    config('request.headers', JSON.stringify(settings.headers)),
    config('request.cookies', JSON.stringify(settings.cookies)),
    ...Object.entries(caller.claims)
      .filter(([name]) => CLAIM_NAME.test(name))
      .slice(0, 50)
      .map(([name, value]) => config(`request.jwt.claim.${name}`, typeof value === 'string' ? value : JSON.stringify(value))),
  ];
  const begin = settings.readOnly ? 'begin isolation level read committed read only' : 'begin isolation level read committed';
  const preRequest = settings.preRequest ? `; select ${qualifiedFunction(settings.preRequest)}()` : '';
  return `${begin}; select ${calls.join(', ')}${preRequest}`;
}

const RESPONSE_SQL = "select pg_catalog.current_setting('response.headers', true) as headers, pg_catalog.current_setting('response.status', true) as status";

/** `response.headers` as PostgREST reads it: `[{"Cache-Control": "max-age=60"}, ...]`; anything else is ignored. */
export function responseHeadersOf(text: string | null): Array<[string, string]> {
  if (!text) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((entry) =>
    entry && typeof entry === 'object' ? Object.entries(entry as Record<string, unknown>).filter(([, v]) => typeof v === 'string') as Array<[string, string]> : [],
  );
}

/**
 * Runs `work` in one transaction of `ref`'s database on the `api` role's pool, as the caller. Commits (or
 * rolls back for `tx=rollback`) after reading what the statement set for the response; a failure rolls back
 * and is rethrown; a broken connection is destroyed rather than pooled.
 */
export async function inRequestTransaction<T>(
  pools: ProjectPools,
  ref: string,
  settings: RequestSettings,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<{ result: T; response: ResponseSettings }> {
  const client = await connectProject(pools, ref);
  let broken: Error | undefined;
  try {
    await client.query(beginSql(settings));
    const result = await work(client);
    // What the statement set for the response, and the end of the transaction: one round trip (a simple
    // query of two statements answers a result per statement).
    const results = (await client.query(`${RESPONSE_SQL}; ${settings.rollback ? 'rollback' : 'commit'}`)) as unknown as Array<pg.QueryResult<{ headers: string | null; status: string | null }>>;
    const rows = results[0]!.rows;
    const status = rows[0]?.status ? Number(rows[0].status) : null;
    return { result, response: { headers: responseHeadersOf(rows[0]?.headers ?? null), status: status && Number.isInteger(status) && status >= 100 && status < 600 ? status : null } };
  } catch (error) {
    if (isConnectionFailure(error)) broken = error as Error;
    else await client.query('rollback').catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    client.release(broken);
  }
}
