import pg from 'pg';
import { ServiceMessages } from '@dash/contracts';
import { HttpError } from './errors';

/** What the client reads when the database connection failed: one wording for every service. */
export const DATABASE_UNAVAILABLE = ServiceMessages.databaseUnavailable;

/** The Retry-After (seconds) of a 503: a restarted server accepts connections again within about a second. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * SQLSTATEs that say the session or the server is gone, not that the statement was wrong: class 08
 * (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting
 * up or shutting down), 57P04 database_dropped, 57P05 idle_session_timeout, 53300 too_many_connections
 * (every service reconnecting at once after a restart).
 */
function isConnectionSqlState(code: string): boolean {
  return code.startsWith('08') || /^57P0[1-5]$/.test(code) || code === '53300';
}

/** Socket errors of a connection that was refused, reset or cut. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * pg's own errors for a connection it lost or never had: "Connection terminated unexpectedly",
 * "Connection terminated", "Client has encountered a connection error and is not queryable", "Client was
 * closed and is not queryable", "timeout exceeded when trying to connect".
 */
const PG_CONNECTION_MESSAGE = /^Connection terminated|is not queryable|^timeout exceeded when trying to connect/i;

/**
 * Whether `error` says the connection to Postgres failed rather than that a statement was wrong. Anything
 * else without a SQLSTATE is a bug of ours (a 500).
 */
export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof pg.DatabaseError) return isConnectionSqlState(error.code ?? '');
  // Not `instanceof Error`: a socket error is made by Node's own realm, which is not the caller's in a
  // vm context (Jest), and must still be recognised.
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || isConnectionSqlState(code))) return true;
  return typeof message === 'string' && PG_CONNECTION_MESSAGE.test(message);
}

/** The 503 a request gets when the database connection failed (the kit's error handler adds Retry-After). */
export function databaseUnavailable(): HttpError {
  return new HttpError(503, DATABASE_UNAVAILABLE);
}
