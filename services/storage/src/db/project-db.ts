import pg from 'pg';
import { HttpError, type ProjectPools } from '@dash/service-kit';
import type { SqlQuery } from '../sql/query';

export const DATABASE_UNAVAILABLE = 'The project database is unavailable';

/**
 * Errors that say the connection to the project database failed rather than that a statement was
 * wrong: SQLSTATE class 08, 57P01-57P05 (the server ended the session), socket errors and pg's
 * "Connection terminated".
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

/**
 * Runs one query on the project database as the connection's own (admin) user: the dashboard's view.
 * A connection failure is a 503; an unknown project is the resolver's 404; Postgres errors are rethrown
 * for the route to map.
 */
export async function projectQuery<T extends pg.QueryResultRow>(pools: ProjectPools, ref: string, query: SqlQuery): Promise<T[]> {
  const pool = await pools.get(ref);
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch {
    throw new HttpError(503, DATABASE_UNAVAILABLE);
  }
  try {
    const result = await client.query<T>(query.text, query.values);
    client.release();
    return result.rows;
  } catch (error) {
    const lost = isConnectionFailure(error);
    client.release(lost ? (error as Error) : undefined);
    if (lost) throw new HttpError(503, DATABASE_UNAVAILABLE);
    throw error;
  }
}
