import pg from 'pg';
import { isConnectionFailure } from '@dash/service-kit';
import { PostgrestError } from '../query/errors';

/**
 * The HTTP status PostgREST answers a Postgres error with, by SQLSTATE (its documented table): the class
 * decides, a few codes are singled out, and anything unlisted is the client's mistake (400). A
 * `PTxyz` SQLSTATE raised by a function is the status xyz itself.
 */
export function statusOfSqlState(code: string, authenticated: boolean): number {
  const custom = /^PT([1-5]\d\d)$/.exec(code);
  if (custom) return Number(custom[1]);
  switch (code) {
    case '23503':
    case '23505':
      return 409;
    case '25006':
      return 405;
    case '42883':
    case '42P01':
      return 404;
    case '42501':
      // Insufficient privilege: a caller without a token may get one (401); one with a token may not (403).
      return authenticated ? 403 : 401;
    case '42P17':
      return 500;
    case 'P0001':
      return 400;
    case '53400':
      return 500;
  }
  // Program limits (54: a statement too complex, too many columns or arguments, stack depth) are reached by
  // what the request asked for: the client's mistake, a 400 here where PostgREST answers 500.
  if (code.startsWith('54')) return 400;
  // Object not in prerequisite state: a write to a view Postgres cannot update (or a similar ask of the
  // object) is what the request asked for, not a server fault: a 400 here where PostgREST answers 500.
  if (code === '55000') return 400;
  const byClass: Record<string, number> = {
    '08': 503, '09': 500, '0L': 403, '0P': 403, '25': 500, '28': 403, '2D': 500, '38': 500, '39': 500, '3B': 500,
    '40': 500, '53': 503, '55': 500, '57': 500, '58': 500, F0: 500, HV: 500, P0: 500, XX: 500,
  };
  return byClass[code.slice(0, 2)] ?? 400;
}

/** The request was cut off by the statement timeout: say so plainly (57014 is a 500 in PostgREST's table). */
const CANCELED = '57014';

/**
 * What a failed request answers: PostgREST's own errors as they are, a Postgres error as PostgREST relays it
 * (`code` the SQLSTATE, `message`, `details`, `hint`), a lost connection as 503 PGRST001.
 */
export function toPostgrestError(error: unknown, authenticated: boolean): PostgrestError {
  if (error instanceof PostgrestError) return error;
  if (isConnectionFailure(error)) return new PostgrestError(503, 'PGRST001', 'Database client error. Retrying the connection.', null, null);
  if (error instanceof pg.DatabaseError && typeof error.code === 'string') {
    const status = error.code === CANCELED ? 504 : statusOfSqlState(error.code, authenticated);
    return new PostgrestError(status, error.code, error.message, error.detail ?? null, error.hint ?? null);
  }
  throw error;
}
