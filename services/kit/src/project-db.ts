import { createHash } from 'node:crypto';
import pg from 'pg';
import { badRequest, HttpError } from './errors';
import { databaseUnavailable, isConnectionFailure } from './connection-errors';
import { hasSqlState, SqlState } from './pg-errors';
import type { ProjectPools } from './project-pools';
import type { ProjectRole } from './project-bootstrap';

/** A parameterised statement for `pg`: text with `$n` placeholders and their values. */
export interface SqlQuery {
  text: string;
  values: unknown[];
}

/** A Postgres error caused by the statement (syntax, missing table, read-only, timeout...). */
export function isStatementError(error: unknown): error is pg.DatabaseError {
  return error instanceof pg.DatabaseError && typeof error.code === 'string' && !isConnectionFailure(error);
}

/**
 * Maps a failure of a statement on a project database to what the client should see: Postgres's own
 * message as a 400 carrying the SQLSTATE (the input was wrong), or a 503 when the connection failed.
 * Anything else is passed through (an HttpError of ours, or a bug that becomes a 500).
 */
export function projectDbError(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  if (isStatementError(error)) return badRequest(error.message, error.code);
  if (isConnectionFailure(error)) return databaseUnavailable();
  return error;
}

/** A client of the project's pool for `role`; a failed connection is a 503, an unknown project the resolver's 404. */
export async function connectProject(pools: ProjectPools, ref: string, role?: ProjectRole): Promise<pg.PoolClient> {
  try {
    return await pools.connect(ref, role);
  } catch (error) {
    // The resolver's own errors (an unknown project's 404) pass through; a failed connection is a 503.
    if (error instanceof HttpError) throw error;
    throw databaseUnavailable();
  }
}

export interface ProjectQueryOptions {
  /**
   * Run it as a named prepared statement, kept by each pooled connection: Postgres parses and plans the
   * text once per connection, and after five runs keeps a generic plan when that plan is estimated no
   * dearer than the custom ones, so later runs are not planned at all. Only for a fixed set of texts (one
   * statement per text stays on every connection) whose plan does not hinge on the values: a `limit $n`
   * makes the generic plan assume a small page and start fast, which made a whole catalog list 2.6x slower.
   * Postgres re-plans by itself after DDL on what the statement reads.
   */
  prepared?: boolean;
}

/** A prepared text's statement: named from a hash of it, as `pg` refuses one name for two texts on a connection. */
const preparedStatement = (query: SqlQuery): pg.QueryConfig => ({
  name: `dash_${createHash('sha1').update(query.text).digest('hex')}`,
  text: query.text,
  values: query.values as unknown[] | undefined,
});

/**
 * Runs one query of ours on the project database as the connection's own (admin) user: the dashboard's
 * view. Postgres errors are rethrown for the route to map; a lost connection is a 503 and the client
 * is destroyed rather than returned to the pool.
 */
export async function projectQuery<T extends pg.QueryResultRow>(pools: ProjectPools, ref: string, query: SqlQuery, options: ProjectQueryOptions = {}): Promise<T[]> {
  const client = await connectProject(pools, ref);
  try {
    const result = options.prepared ? await client.query<T>(preparedStatement(query)) : await client.query<T>(query.text, query.values);
    client.release();
    return result.rows;
  } catch (error) {
    if (options.prepared && hasSqlState(error, SqlState.InvalidSqlStatementName)) {
      // The connection dropped its statements (a SQL editor session ends with `discard all`) while `pg`
      // still believes this one parsed: the connection is closed, and the query runs once, unprepared, on another.
      client.release(error as Error);
      return projectQuery<T>(pools, ref, query);
    }
    const lost = isConnectionFailure(error);
    client.release(lost ? (error as Error) : undefined);
    if (lost) throw databaseUnavailable();
    throw error;
  }
}

/** A database role and the JWT claims `auth.uid()`, `auth.role()` and `auth.jwt()` read. */
export interface DatabaseCaller {
  role: string;
  claims: Record<string, unknown>;
}

/**
 * Runs `work` in one transaction of the project database, acting as `caller` when one is given (row-level
 * security applies to it; both settings are local to the transaction and end with it). Commits when
 * `work` resolves, rolls back when it throws; a lost connection is a 503 and the client is destroyed.
 */
export async function projectTransaction<T>(
  pools: ProjectPools,
  ref: string,
  caller: DatabaseCaller | null,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await connectProject(pools, ref);
  let broken: Error | undefined;
  try {
    await client.query('begin');
    if (caller) {
      // set_config('role', …, true) is `set local role` with the name as a parameter, never as SQL text.
      await client.query("select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)", [caller.role, JSON.stringify(caller.claims)]);
    }
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    if (isConnectionFailure(error)) broken = error as Error;
    else await client.query('rollback').catch((rollbackError: Error) => (broken = rollbackError));
    if (broken) throw databaseUnavailable();
    throw error;
  } finally {
    client.release(broken);
  }
}
