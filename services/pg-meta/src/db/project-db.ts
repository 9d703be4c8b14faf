import pg from 'pg';
import { HttpError, type ProjectPools } from '@dash/service-kit';
import type { SqlQuery } from '../sql/query';

export const DATABASE_UNAVAILABLE = 'The project database is unavailable';

/**
 * Errors that say the connection to the project database failed rather than that a statement was
 * wrong: SQLSTATE class 08 (connection exception), 57P01-57P05 (the server ended the session), socket
 * errors and pg's "Connection terminated". Anything else without a SQLSTATE is a bug of ours (a 500).
 */
export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof pg.DatabaseError) {
    const code = error.code ?? '';
    return code.startsWith('08') || /^57P0[1-5]$/.test(code);
  }
  if (!(error instanceof Error)) return false;
  // Socket errors (ECONNRESET, ECONNREFUSED, EPIPE...) and pg's own "Connection terminated" errors.
  const code = (error as { code?: unknown }).code;
  return (typeof code === 'string' && /^E[A-Z]+$/.test(code)) || /connection|terminated|not queryable/i.test(error.message);
}

/** A Postgres error caused by the statement (syntax, missing table, read-only, timeout...). */
export function isStatementError(error: unknown): error is pg.DatabaseError {
  return error instanceof pg.DatabaseError && typeof error.code === 'string' && !isConnectionFailure(error);
}

function unavailable(): HttpError {
  return new HttpError(503, DATABASE_UNAVAILABLE);
}

/** A client of the project's pool; a failed connection is a 503, an unknown project the resolver's 404. */
export async function connectProject(pools: ProjectPools, ref: string): Promise<pg.PoolClient> {
  const pool = await pools.get(ref);
  try {
    return await pool.connect();
  } catch {
    throw unavailable();
  }
}

/** Runs one catalog query of ours on the project database. */
export async function catalogQuery<T extends pg.QueryResultRow>(pools: ProjectPools, ref: string, query: SqlQuery): Promise<T[]> {
  const client = await connectProject(pools, ref);
  try {
    const result = await client.query<T>(query.text, query.values);
    client.release();
    return result.rows;
  } catch (error) {
    const lost = isConnectionFailure(error);
    client.release(lost ? (error as Error) : undefined);
    if (lost) throw unavailable();
    throw error;
  }
}
