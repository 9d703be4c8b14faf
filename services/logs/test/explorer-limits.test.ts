import pg from 'pg';
import { ExplorerMessages, LOG_EXPLORER_MAX_RUNS_PER_MEMBER, type ExplorerQueryResult } from '@dash/contracts';
import { EXPLORER_SESSION_SETTINGS, SERVICE_ROLES } from '@dash/service-kit';
import { userHeaders } from '@dash/service-kit/dist/testing';
import { EXPLORER_POOL_CONNECTIONS } from '../src/app';
import { runExplorerQuery } from '../src/db/explorer-run';
import { setupPlatform, type Platform } from './helpers';
import { edgeEvent, minutesAgo, seedEvents } from './explorer-fixtures';

let p: Platform;
let superuser: pg.Client;
const REF = 'lim-a';

beforeAll(async () => {
  p = await setupPlatform();
  superuser = new pg.Client({ connectionString: p.superuserUrl });
  await superuser.connect();
  await seedEvents(p.pool, [edgeEvent(REF, minutesAgo(5), '/rest/v1/todos')]);
});

afterAll(async () => {
  await superuser.end();
  await p.close();
});

async function explore(member: string, sql: string) {
  const res = await p.app.inject({
    method: 'POST',
    url: `/${REF}/explorer/query`,
    headers: userHeaders({ [REF]: 'read_only' }, member),
    payload: { sql, range: { preset: '1h' } },
  });
  return { status: res.statusCode, body: res.json() as ExplorerQueryResult & { message?: string; code?: string } };
}

async function waitUntil(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Queries of this test's database waiting for the lock the test holds on log_tables.auth_logs. */
async function waitingForAuthLogs(): Promise<number> {
  const { rows } = await superuser.query<{ n: number }>(
    `select count(*)::int as n from pg_locks
     where not granted and relation = 'log_tables.auth_logs'::regclass and database = (select oid from pg_database where datname = current_database())`,
  );
  return rows[0]!.n;
}

describe('explorer queries', () => {
  it('run on a pool of their own, a few per member: the next gets a 429 while other members and the log pages are served', async () => {
    // Slow queries that take no CPU: reading auth_logs waits while the test holds a lock on that view
    // alone (LOCK TABLE on a view would lock logs.events too, and so the log pages).
    await superuser.query('begin');
    await superuser.query('alter view log_tables.auth_logs set (security_invoker = true)');
    const members = ['m0', 'm1', 'm2', 'm3', 'm4', 'm5'];
    // Twelve queries in flight, more than the service's pool has connections (ten).
    const runs = members.flatMap((member) => Array.from({ length: LOG_EXPLORER_MAX_RUNS_PER_MEMBER }, () => explore(member, 'select count(*) as n from auth_logs')));
    let settled = false;
    const finished = Promise.all(runs).finally(() => (settled = true));
    try {
      await waitUntil(async () => (await waitingForAuthLogs()) === EXPLORER_POOL_CONNECTIONS, 'the explorer pool is busy');
      await waitUntil(() => p.explorerPool.waitingCount === runs.length - EXPLORER_POOL_CONNECTIONS, 'the other queries wait for the pool');

      const third = await explore('m0', 'select 1');
      expect(third).toMatchObject({ status: 429, body: { message: ExplorerMessages.tooManyRuns } });
      expect(ExplorerMessages.tooManyRuns).toBe('You already have 2 log queries running. Wait for one to finish, then run this one again.');

      const page = await p.app.inject({ method: 'GET', url: `/${REF}/sources/edge/events`, headers: userHeaders({ [REF]: 'owner' }, 'owner') });
      expect(page.statusCode).toBe(200);
      expect((page.json() as { events: unknown[] }).events).toHaveLength(1);
      const recent = await p.app.inject({ method: 'GET', url: `/${REF}/explorer/recent`, headers: userHeaders({ [REF]: 'owner' }, 'owner') });
      expect(recent.statusCode).toBe(200);
      expect(settled).toBe(false);
    } finally {
      await superuser.query('rollback');
    }
    const results = await finished;
    expect(results.map((r) => [r.status, r.body.rows])).toEqual(runs.map(() => [200, [[0]]]));
    // Their slots are free again.
    expect((await explore('m0', 'select 1')).status).toBe(200);
  });

  it('run as the explorer role, switched to the reader, with the memory, disk and time caps', async () => {
    const who = await explore('m0', 'select session_user, current_user');
    expect(who.body.rows).toEqual([[SERVICE_ROLES.logsExplorer, 'dash_logs_reader']]);
    for (const [pool, role] of [
      [p.explorerPool, SERVICE_ROLES.logsExplorer],
      [p.pool, SERVICE_ROLES.logs],
    ] as const) {
      const { rows } = await pool.query('select session_user, usesuper from pg_user where usename = session_user');
      expect(rows).toEqual([{ session_user: role, usesuper: false }]);
    }

    // The guard refuses current_setting; the runner alone shows what a query's transaction has.
    const caps = await runExplorerQuery(p.explorerPool, {
      ref: REF,
      statement: `select current_setting('work_mem'), current_setting('temp_file_limit'), current_setting('statement_timeout'), current_setting('transaction_read_only')`,
      offset: 0,
      from: minutesAgo(60),
      to: new Date(),
      tables: [],
      histogram: false,
      maxRows: 10,
      statementTimeoutMs: 10_000,
    });
    expect(caps.rows).toEqual([[EXPLORER_SESSION_SETTINGS.work_mem, EXPLORER_SESSION_SETTINGS.temp_file_limit, '10s', 'on']]);

    // A set function in FROM is kept in a temporary file once past work_mem: 20 million rows need more than the limit.
    const spill = await explore('m0', 'select count(*) from generate_series(1, 20000000)');
    expect(spill).toMatchObject({ status: 400, body: { code: '53400', message: ExplorerMessages.tooMuchTempSpace(EXPLORER_SESSION_SETTINGS.temp_file_limit) } });
  });
});
