import pg from 'pg';
import { HttpError, isConnectionFailure, isStatementError, projectDbError } from '../src';

function dbError(code: string, message = 'boom'): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  return error;
}

describe('project database errors', () => {
  it('tells statement errors from lost connections', () => {
    expect(isStatementError(dbError('42P01'))).toBe(true);
    expect(isStatementError(dbError('08006'))).toBe(false);
    expect(isConnectionFailure(dbError('57P01'))).toBe(true);
    expect(isConnectionFailure(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isConnectionFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionFailure(new TypeError('x is undefined'))).toBe(false);
  });

  it('maps a bad statement to a 400 with its message and SQLSTATE, a lost connection to a 503', () => {
    const bad = projectDbError(dbError('22P02', 'invalid input syntax for type integer: "x"')) as HttpError;
    expect(bad).toBeInstanceOf(HttpError);
    expect(bad.statusCode).toBe(400);
    expect(bad.message).toBe('invalid input syntax for type integer: "x"');
    expect(bad.code).toBe('22P02');
    expect((projectDbError(dbError('08003')) as HttpError).statusCode).toBe(503);
    const bug = new TypeError('bug');
    expect(projectDbError(bug)).toBe(bug);
  });
});
