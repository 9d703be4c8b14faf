import { LOG_QUERY_TEMPLATES, LOG_EXPLORER_TABLES, type ExplorerQueryResult } from '@dash/contracts';
import { userHeaders } from '@dash/service-kit/dist/testing';
import { guardExplorerSql, loadExplorerParser } from '../src/sql/explorer-guard';
import { setupPlatform, type Platform } from './helpers';
import { edgeEvent, minutesAgo, seedEvents, type SeedEvent } from './explorer-fixtures';

let p: Platform;
const REF = 'tpl-ref';
const now = Date.now();

const pgLine = (minutes: number, message: string, extra: Record<string, unknown>): SeedEvent => ({
  source: 'postgres',
  ref: REF,
  at: minutesAgo(minutes, now),
  message,
  metadata: { error_severity: 'LOG', sql_state_code: '00000', user_name: 'postgres', database_name: 'app', backend_type: 'client backend', statement: null, detail: null, hint: null, duration_ms: null, ...extra },
});
const auth = (minutes: number, action: string, email: string, status: number): SeedEvent => ({
  source: 'auth',
  ref: REF,
  at: minutesAgo(minutes, now),
  message: `${action} ${email}`,
  metadata: { action, status, user_email: email, user_id: null, ip: '10.0.0.1', level: action === 'login_failed' ? 'warning' : 'info' },
});
const storage = (minutes: number, bucket: string, direction: 'in' | 'out', bytes: number, status = 200): SeedEvent => ({
  source: 'storage',
  ref: REF,
  at: minutesAgo(minutes, now),
  message: `${direction === 'in' ? 'PUT' : 'GET'} ${bucket}`,
  metadata: { method: direction === 'in' ? 'PUT' : 'GET', path: `/object/${bucket}/f`, status, duration_ms: 4, bucket, object: 'f', operation: direction === 'in' ? 'upload' : 'download', bytes, direction, role: 'authenticated' },
});
const rest = (minutes: number, role: string, duration: number): SeedEvent => ({
  source: 'postgrest',
  ref: REF,
  at: minutesAgo(minutes, now),
  message: 'GET /rest/v1/todos 200',
  metadata: { method: 'GET', path: '/rest/v1/todos', status: 200, duration_ms: duration, role },
});

beforeAll(async () => {
  await loadExplorerParser();
  p = await setupPlatform();
  await seedEvents(p.pool, [
    edgeEvent(REF, minutesAgo(1, now), '/rest/v1/todos', 200, { duration_ms: 10, user_agent: 'curl/8' }),
    edgeEvent(REF, minutesAgo(2, now), '/rest/v1/todos', 200, { duration_ms: 30, user_agent: 'curl/8' }),
    edgeEvent(REF, minutesAgo(3, now), '/rest/v1/slow', 200, { duration_ms: 900, user_agent: 'Mozilla/5.0' }),
    edgeEvent(REF, minutesAgo(4, now), '/rest/v1/missing', 404, { duration_ms: 5, user_agent: 'curl/8' }),
    edgeEvent(REF, minutesAgo(5, now), '/rest/v1/missing', 404, { duration_ms: 5, user_agent: null }),
    edgeEvent(REF, minutesAgo(6, now), '/rest/v1/broken', 500, { duration_ms: 50, user_agent: 'curl/8' }),
    edgeEvent('tpl-other', minutesAgo(6, now), '/rest/v1/other-project', 500),
    pgLine(2, 'relation "nope" does not exist', { error_severity: 'ERROR', sql_state_code: '42P01', statement: 'select * from nope' }),
    pgLine(3, 'relation "gone" does not exist', { error_severity: 'ERROR', sql_state_code: '42P01', statement: 'select * from gone' }),
    pgLine(4, 'division by zero', { error_severity: 'ERROR', sql_state_code: '22012', statement: 'select 1/0' }),
    pgLine(5, 'duration: 1500.250 ms  statement: select pg_sleep(1.5)', { duration_ms: 1500.25, statement: 'select pg_sleep(1.5)' }),
    pgLine(6, 'duration: 20.000 ms  statement: select 1', { duration_ms: 20, statement: 'select 1' }),
    pgLine(7, 'connection authorized: user=postgres database=app', {}),
    pgLine(8, 'connection authorized: user=postgres database=app', {}),
    pgLine(9, 'connection authorized: user=authenticator database=app', { user_name: 'authenticator' }),
    auth(1, 'login', 'ada@example.com', 200),
    auth(2, 'login', 'ada@example.com', 200),
    auth(3, 'login_failed', 'eve@example.com', 401),
    auth(4, 'login_failed', 'eve@example.com', 401),
    auth(5, 'login_failed', 'ada@example.com', 401),
    auth(6, 'logout', 'ada@example.com', 200),
    storage(1, 'avatars', 'in', 1000),
    storage(2, 'avatars', 'in', 2000),
    storage(3, 'docs', 'in', 500),
    storage(4, 'docs', 'out', 7000),
    storage(5, 'avatars', 'out', 100),
    storage(6, 'docs', 'out', 0, 404),
    rest(1, 'anon', 10),
    rest(2, 'anon', 20),
    rest(3, 'authenticated', 40),
  ]);
});

afterAll(async () => {
  await p.close();
});

/** What each template should find in the seeded events (the first rows, or the whole result). */
const EXPECTED: Record<string, (r: ExplorerQueryResult) => void> = {
  'errors-by-status': (r) => expect(r.rows).toEqual([[404, 2], [500, 1]]),
  'slowest-paths': (r) => {
    expect(r.columns.map((c) => c.name)).toEqual(['path', 'requests', 'avg_ms', 'p95_ms']);
    expect(r.rows[0]!.slice(0, 3)).toEqual(['/rest/v1/slow', 1, '900.0']);
    expect(r.rows.find((row) => row[0] === '/rest/v1/todos')!.slice(1, 3)).toEqual([2, '20.0']);
  },
  'top-user-agents': (r) => expect(r.rows).toEqual([['curl/8', 4], ['(none)', 1], ['Mozilla/5.0', 1]].sort((a, b) => (b[1] as number) - (a[1] as number) || String(a[0]).localeCompare(String(b[0])))),
  'requests-per-minute': (r) => {
    expect(r.rows.reduce((sum, row) => sum + (row[1] as number), 0)).toBe(6);
    expect(r.rows.reduce((sum, row) => sum + (row[2] as number), 0)).toBe(1);
  },
  'server-errors-last-hour': (r) => expect(r.rows.map((row) => row.slice(1, 4))).toEqual([['GET', '/rest/v1/broken', 500]]),
  'postgres-errors': (r) => expect(r.rows.map((row) => row[3])).toEqual(['relation "nope" does not exist', 'relation "gone" does not exist', 'division by zero']),
  'postgres-errors-by-code': (r) => expect(r.rows).toEqual([['42P01', 2, 'relation "gone" does not exist'], ['22012', 1, 'division by zero']]),
  'slow-statements': (r) => expect(r.rows.map((row) => row.slice(1))).toEqual([['1500.25', 'postgres', 'select pg_sleep(1.5)'], ['20', 'postgres', 'select 1']]),
  'connections-by-user': (r) => expect(r.rows).toEqual([['postgres', 'app', 2], ['authenticator', 'app', 1]]),
  'failed-sign-ins': (r) => expect(r.rows.map((row) => row.slice(1, 4))).toEqual([['eve@example.com', '10.0.0.1', 401], ['eve@example.com', '10.0.0.1', 401], ['ada@example.com', '10.0.0.1', 401]]),
  'sign-ins-by-user': (r) => expect(r.rows.map((row) => row.slice(0, 3))).toEqual([['ada@example.com', 2, 1], ['eve@example.com', 0, 2]]),
  'auth-events-by-action': (r) => expect(r.rows).toEqual(expect.arrayContaining([['login_failed', 'warning', 3], ['login', 'info', 2], ['logout', 'info', 1]])),
  'uploads-by-bucket': (r) => expect(r.rows).toEqual([['avatars', 2, 3000], ['docs', 1, 500]]),
  'downloads-by-bucket': (r) => expect(r.rows).toEqual([['docs', 2, 7000], ['avatars', 1, 100]]),
  'storage-errors': (r) => expect(r.rows).toEqual([['download', 404, 1]]),
  'rest-requests-by-role': (r) => expect(r.rows).toEqual([['anon', 2, '15.0'], ['authenticated', 1, '40.0']]),
};

describe('LOG_QUERY_TEMPLATES', () => {
  it('has at least 12 templates with unique ids, each with an expectation here', () => {
    expect(LOG_QUERY_TEMPLATES.length).toBeGreaterThanOrEqual(12);
    expect(new Set(LOG_QUERY_TEMPLATES.map((t) => t.id)).size).toBe(LOG_QUERY_TEMPLATES.length);
    expect(LOG_QUERY_TEMPLATES.map((t) => t.id).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(LOG_QUERY_TEMPLATES.map((t) => [t.id, t] as const))('%s passes the guard and reads its own table', (_id, template) => {
    const result = guardExplorerSql(template.sql);
    expect(result).toMatchObject({ ok: true, tables: [template.table], statement: template.sql, offset: 0 });
    expect(LOG_EXPLORER_TABLES).toContain(template.table);
  });

  it.each(LOG_QUERY_TEMPLATES.map((t) => [t.id, t] as const))('%s finds what the seeded events hold', async (id, template) => {
    const res = await p.app.inject({
      method: 'POST',
      url: `/${REF}/explorer/query`,
      headers: userHeaders({ [REF]: 'read_only' }),
      payload: { sql: template.sql, range: { preset: '1h' } },
    });
    expect(res.statusCode).toBe(200);
    const result = res.json() as ExplorerQueryResult;
    expect(result.rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(result.rows)).not.toContain('other-project');
    EXPECTED[id]!(result);
  });
});
