import pg from 'pg';
import { isConnectionFailure, isStatementError } from '../src/db/project-db';

const pgError = (code: string) => Object.assign(new pg.DatabaseError('message', 1, 'error'), { code });

describe('error classification', () => {
  it('tells connection failures from statement errors', () => {
    expect(isConnectionFailure(pgError('08006'))).toBe(true);
    expect(isConnectionFailure(pgError('57P01'))).toBe(true);
    expect(isConnectionFailure(pgError('57014'))).toBe(false);
    expect(isConnectionFailure(pgError('42601'))).toBe(false);
    expect(isStatementError(pgError('42601'))).toBe(true);
    expect(isStatementError(pgError('25006'))).toBe(true);
    expect(isStatementError(pgError('08006'))).toBe(false);
  });

  it('counts socket errors and dropped connections as connection failures, not our own bugs', () => {
    expect(isConnectionFailure(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isConnectionFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionFailure(new TypeError('x is undefined'))).toBe(false);
    expect(isConnectionFailure('not an error')).toBe(false);
    expect(isStatementError(new Error('Connection terminated'))).toBe(false);
  });
});
