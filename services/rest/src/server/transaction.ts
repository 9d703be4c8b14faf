import type pg from 'pg';
import { quoteIdent } from '@dash/contracts';
import { connectProject, isConnectionFailure, type ProjectPools } from '@dash/service-kit';
import type { Statement } from '../query/sql';
import { runBatch, type BatchRows } from './batch';
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
 * What opens every request's transaction: the transaction itself, then the caller's role and the request's
 * settings, all local to the transaction (so a pooled connection keeps none of them), every name and value
 * a parameter; then Settings → API's pre-request function. `set_config('role', …)` refuses a role the `api`
 * login role is not a member of (42501), and nothing after it in the batch runs.
 */
export function beginStatements(settings: RequestSettings): Statement[] {
  const values: string[] = [];
  const config = (name: string, value: string) => {
    values.push(name, value);
    return `pg_catalog.set_config($${values.length - 1}, $${values.length}, true)`;
  };
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
  return [
    { text: begin, values: [] },
    { text: `select ${calls.join(', ')}`, values },
    ...(settings.preRequest ? [{ text: `select ${qualifiedFunction(settings.preRequest)}()`, values: [] }] : []),
  ];
}

/** What ends every request's transaction: what the statements set for the response is read, then the end. */
function endStatements(settings: RequestSettings): Statement[] {
  return [
    { text: "select pg_catalog.current_setting('response.headers', true) as headers, pg_catalog.current_setting('response.status', true) as status", values: [] },
    { text: settings.rollback ? 'rollback' : 'commit', values: [] },
  ];
}

function responseSettingsOf(row: BatchRows[number] | undefined): ResponseSettings {
  const status = row?.status ? Number(row.status) : null;
  return { headers: responseHeadersOf(row?.headers ?? null), status: status && Number.isInteger(status) && status >= 100 && status < 600 ? status : null };
}

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
 * Runs the request's `statement` in one transaction of `ref`'s database on the `api` role's pool, as the
 * caller, and answers its first row (as `finish` left it) with what the transaction set for the response. Without `finish` the
 * whole transaction (begin, settings, statement, response settings, commit) is one round trip. `finish`
 * runs inside the transaction after the statement (more queries on `client`, or checks that throw to roll
 * it back), then the response settings are read and the transaction ends in a second round trip. It commits,
 * or rolls back for `tx=rollback`; a failure rolls back and is rethrown; a broken connection is destroyed
 * rather than pooled.
 */
export async function inRequestTransaction<Row>(
  pools: ProjectPools,
  ref: string,
  settings: RequestSettings,
  statement: Statement,
  finish?: (row: Row, client: pg.PoolClient) => Promise<Row>,
): Promise<{ row: Row; response: ResponseSettings }> {
  const client = await connectProject(pools, ref);
  let broken: Error | undefined;
  try {
    const begin = beginStatements(settings);
    if (!finish) {
      const results = await runBatch(client, [...begin, statement, ...endStatements(settings)]);
      return { row: results[begin.length]![0] as Row, response: responseSettingsOf(results[begin.length + 1]![0]) };
    }
    const results = await runBatch(client, [...begin, statement]);
    const row = await finish(results[begin.length]![0] as Row, client);
    const [response] = await runBatch(client, endStatements(settings));
    return { row, response: responseSettingsOf(response![0]) };
  } catch (error) {
    if (isConnectionFailure(error)) broken = error as Error;
    else await client.query('rollback').catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    client.release(broken);
  }
}
