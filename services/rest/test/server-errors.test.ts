import { statusOfSqlState } from '../src/server/errors';

describe('statusOfSqlState', () => {
  it('maps SQLSTATEs to PostgREST\'s statuses', () => {
    expect(statusOfSqlState('23505', true)).toBe(409);
    expect(statusOfSqlState('23503', true)).toBe(409);
    expect(statusOfSqlState('23502', true)).toBe(400);
    expect(statusOfSqlState('25006', true)).toBe(405);
    expect(statusOfSqlState('42P01', true)).toBe(404);
    expect(statusOfSqlState('42883', true)).toBe(404);
    expect(statusOfSqlState('P0001', true)).toBe(400);
    expect(statusOfSqlState('P0002', true)).toBe(500);
    expect(statusOfSqlState('08006', true)).toBe(503);
    expect(statusOfSqlState('28000', true)).toBe(403);
    expect(statusOfSqlState('22P02', true)).toBe(400);
  });

  it('answers insufficient privilege 401 to anon and 403 to a caller with a token', () => {
    expect(statusOfSqlState('42501', false)).toBe(401);
    expect(statusOfSqlState('42501', true)).toBe(403);
  });

  it('takes a PTxyz SQLSTATE as status xyz, and program limits or a view that cannot be written as the client\'s mistake', () => {
    expect(statusOfSqlState('PT402', true)).toBe(402);
    expect(statusOfSqlState('PT999', true)).toBe(400);
    expect(statusOfSqlState('54001', true)).toBe(400);
    expect(statusOfSqlState('54011', true)).toBe(400);
    expect(statusOfSqlState('55000', true)).toBe(400);
    expect(statusOfSqlState('55P03', true)).toBe(500);
  });
});
