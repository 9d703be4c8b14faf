import pg from 'pg';
import {
  ExplorerMessages,
  explorerRoutes,
  LOG_EXPLORER_MAX_ROWS,
  LOG_EXPLORER_RECENT_LIMIT,
  LOG_SOURCES,
  LogTimeRangeMessages,
  type ExplorerQueryResult,
  type LogTimeRange,
  type OrgRole,
} from '@dash/contracts';
import { createDb, createPool, HttpError } from '@dash/service-kit';
import { createTestDatabase, userHeaders, serviceHeaders } from '@dash/service-kit/dist/testing';
import { migrateLogs } from '../src/db/migrations';
import { runExplorerQuery, type ExplorerRun } from '../src/db/explorer-run';
import { recordRecentQuery } from '../src/db/explorer-recent';
import { contractValidator, setupPlatform, type Platform } from './helpers';
import { edgeEvent, minutesAgo, seedEvents } from './explorer-fixtures';

let p: Platform;
const check = contractValidator();
const REF = 'exp-a';
const OTHER = 'exp-b';
const now = Date.now();

beforeAll(async () => {
  p = await setupPlatform();
  await seedEvents(p.pool, [
    edgeEvent(REF, minutesAgo(5, now), '/rest/v1/todos', 200),
    edgeEvent(REF, minutesAgo(10, now), '/rest/v1/missing', 404),
    edgeEvent(REF, minutesAgo(20, now), '/rest/v1/broken', 500),
    edgeEvent(REF, minutesAgo(120, now), '/rest/v1/old', 200),
    edgeEvent(OTHER, minutesAgo(5, now), '/rest/v1/secret-of-b', 200),
    {
      source: 'postgres',
      ref: REF,
      at: minutesAgo(7, now),
      message: 'relation "nope" does not exist',
      metadata: { error_severity: 'ERROR', sql_state_code: '42P01', user_name: 'postgres', database_name: 'db', backend_type: 'client backend', statement: 'select * from nope', detail: null, hint: null, duration_ms: null },
    },
  ]);
});

afterAll(async () => {
  await p.close();
});

async function query(sql: string, range: LogTimeRange = { preset: '1h' }, headers: Record<string, string> = userHeaders({ [REF]: 'owner' }), ref = REF) {
  const res = await p.app.inject({ method: 'POST', url: `/${ref}/explorer/query`, headers, payload: { sql, range } });
  return { status: res.statusCode, body: res.json() as ExplorerQueryResult & { message?: string; code?: string; position?: number } };
}

/** Runs SQL as dash_logs_reader on a connection of its own, with no guard in front (as if it were bypassed). */
async function asReader<T extends pg.QueryResultRow>(text: string, settings?: { ref: string; from: Date; to: Date }): Promise<T[]> {
  const client = await p.pool.connect();
  try {
    await client.query('begin');
    if (settings) {
      await client.query(`select set_config('dash.project_ref', $1, true), set_config('dash.range_from', $2, true), set_config('dash.range_to', $3, true)`, [
        settings.ref,
        settings.from.toISOString(),
        settings.to.toISOString(),
      ]);
    }
    await client.query('set local role dash_logs_reader');
    return (await client.query<T>(text)).rows;
  } finally {
    await client.query('rollback').catch(() => {});
    client.release();
  }
}

/** Runs fixture SQL the service's role may not (a function in `public`) as the server's superuser. */
async function asSuperuser(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: p.superuserUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * What reading the log tables without the explorer's settings raises: 42704 on a connection that never
 * had them, 22007 (an empty time) on one whose earlier transaction set them locally, since Postgres keeps
 * a custom setting it has seen, as ''.
 */
const UNSET_SETTING = ['42704', '22007'];

const sqlStateOf = (promise: Promise<unknown>) => promise.then(() => 'no error', (e: { code?: string }) => e.code);

describe('log_tables and the dash_logs_reader role', () => {
  it('has one view per log source with the explorer columns', async () => {
    const { rows } = await p.pool.query<{ view: string; columns: string[] }>(
      `select c.relname as view, array_agg(a.attname::text order by a.attnum) as columns
       from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_attribute a on a.attrelid = c.oid and a.attnum > 0
       where n.nspname = 'log_tables' and c.relkind = 'v' and c.relname = any($1) group by 1 order by 1`,
      [LOG_SOURCES.map((s) => s.table)],
    );
    expect(rows.map((r) => r.view)).toEqual(LOG_SOURCES.map((s) => s.table).sort());
    for (const row of rows) expect(row.columns).toEqual(['id', 'timestamp', 'event_message', 'metadata']);
    // Plain views run with the reader's rights, so logs.events' row policy applies to them.
    const options = await p.pool.query(`select reloptions from pg_class where oid = 'log_tables.edge_logs'::regclass`);
    expect(options.rows[0].reloptions).toEqual(['security_invoker=true']);
  });

  it('is a NOLOGIN role that can select the log_tables views and no other table', async () => {
    const role = await p.pool.query(`select rolcanlogin, rolsuper, rolcreaterole, rolcreatedb, rolbypassrls from pg_roles where rolname = 'dash_logs_reader'`);
    expect(role.rows).toEqual([{ rolcanlogin: false, rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolbypassrls: false }]);
    const { rows } = await p.pool.query<{ name: string }>(
      `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'v', 'm', 'p', 'f') and n.nspname not in ('pg_catalog', 'information_schema')
         and has_table_privilege('dash_logs_reader', c.oid, 'select, insert, update, delete, truncate')
       order by 1`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(LOG_SOURCES.length);
    for (const { name } of rows) expect(name).toMatch(/^log_tables\./);
    const schemas = await p.pool.query(`select has_schema_privilege('dash_logs_reader', 'logs', 'create') as logs, has_schema_privilege('dash_logs_reader', 'log_tables', 'create') as create`);
    expect(schemas.rows[0]).toEqual({ logs: false, create: false });
    // On logs.events only the explorer's columns and the source, read through the row policy.
    const columns = await p.pool.query<{ name: string }>(
      `select a.attname::text as name from pg_attribute a
       where a.attrelid = 'logs.events'::regclass and a.attnum > 0 and not a.attisdropped
         and has_column_privilege('dash_logs_reader', a.attrelid, a.attnum, 'select')
       order by a.attnum`,
    );
    expect(columns.rows.map((r) => r.name)).toEqual(['id', 'timestamp', 'source', 'event_message', 'metadata']);
    const policy = await p.pool.query(`select relrowsecurity, relforcerowsecurity from pg_class where oid = 'logs.events'::regclass`);
    expect(policy.rows[0]).toEqual({ relrowsecurity: true, relforcerowsecurity: false });
  });

  it('cannot read logs.events beyond its policy, nor the catalog’s secrets, even without the guard', async () => {
    const lastHour = { ref: REF, from: minutesAgo(60, now), to: new Date(now) };
    expect(await sqlStateOf(asReader('select * from logs.events', lastHour))).toBe('42501');
    expect(await sqlStateOf(asReader('select project_ref from logs.events', lastHour))).toBe('42501');
    // Without the settings the policy cannot be planned.
    expect(UNSET_SETTING).toContain(await sqlStateOf(asReader('select id from logs.events')));
    const rows = await asReader<{ path: string }>(`select metadata->>'path' as path from logs.events order by "timestamp"`, { ref: REF, from: minutesAgo(30, now), to: new Date(now) });
    // Project a's events of the last 30 minutes, of every source (the Postgres one has no path).
    expect(rows.map((r) => r.path)).toEqual(['/rest/v1/broken', '/rest/v1/missing', null, '/rest/v1/todos']);
    expect(await sqlStateOf(asReader(`select * from ${'logs.events_' + new Date(now).toISOString().slice(0, 10).replace(/-/g, '')}`))).toBe('42501');
    expect(await sqlStateOf(asReader('select * from logs.explorer_recent'))).toBe('42501');
    expect(await sqlStateOf(asReader('select * from pg_authid'))).toBe('42501');
    expect(await sqlStateOf(asReader(`insert into log_tables.edge_logs (event_message) values ('x')`))).toBe('42501');
  });

  it('sees nothing without the explorer settings, and only the set project and range with them', async () => {
    expect(UNSET_SETTING).toContain(await sqlStateOf(asReader('select * from log_tables.edge_logs')));
    const rows = await asReader<{ path: string }>(`select metadata->>'path' as path from log_tables.edge_logs order by "timestamp"`, {
      ref: REF,
      from: minutesAgo(60, now),
      to: new Date(now),
    });
    expect(rows.map((r) => r.path)).toEqual(['/rest/v1/broken', '/rest/v1/missing', '/rest/v1/todos']);
  });

  it('runs the policy before a function of the query that could leak the rows it is given', async () => {
    // A function that is not leakproof and reports every row it sees: had the user's condition run before
    // the policy's, it would report project b's event and the event of two hours ago.
    await asSuperuser(`create or replace function public.explorer_leak_probe(path text) returns boolean language plpgsql cost 0.0000001 as
      $$ begin raise notice 'seen %', path; return true; end $$;
      grant execute on function public.explorer_leak_probe(text) to dash_logs_reader`);
    const client = await p.pool.connect();
    const seen: string[] = [];
    const onNotice = (n: { message?: string }) => seen.push(String(n.message));
    client.on('notice', onNotice);
    try {
      await client.query('begin');
      await client.query(`select set_config('dash.project_ref', $1, true), set_config('dash.range_from', $2, true), set_config('dash.range_to', $3, true)`, [
        REF,
        minutesAgo(60, now).toISOString(),
        new Date(now).toISOString(),
      ]);
      await client.query('set local role dash_logs_reader');
      const { rows } = await client.query(`select count(*)::int as n from log_tables.edge_logs where public.explorer_leak_probe(metadata->>'path')`);
      expect(rows[0].n).toBe(3);
    } finally {
      await client.query('rollback');
      client.off('notice', onNotice);
      client.release();
      await asSuperuser('drop function public.explorer_leak_probe(text)');
    }
    expect(seen.sort()).toEqual(['seen /rest/v1/broken', 'seen /rest/v1/missing', 'seen /rest/v1/todos']);
  });

  it('gives the planner the project and range as constants, so it estimates and prunes as for literals', async () => {
    const from = minutesAgo(60, now);
    const plan = await asReader<{ 'QUERY PLAN': string }>(`explain (costs off) select count(*) from log_tables.edge_logs`, { ref: REF, from, to: new Date(now) });
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).not.toMatch(/InitPlan|current_setting|explorer_/);
    expect(text).toContain(`project_ref = '${REF}'::text`);
    // Only the partition that holds the last hour (or two around midnight) is left in the plan.
    const days = new Set([from, new Date(now)].map((d) => d.toISOString().slice(0, 10).replace(/-/g, '')));
    const scanned = [...text.matchAll(/on events_(\d{8})/g)].map((m) => m[1]);
    expect(scanned.length).toBeGreaterThan(0);
    expect(scanned.every((day) => days.has(day!))).toBe(true);
  });

  it('migrates again without change, and migrates side by side with another database of the cluster', async () => {
    await migrateLogs(p.db);
    const others = await Promise.all([createTestDatabase('logsx'), createTestDatabase('logsy')]);
    const pools = others.map((d) => createPool(d.url));
    const dbs = pools.map((pool) => createDb<unknown>(pool));
    try {
      await Promise.all(dbs.map((db) => migrateLogs(db)));
      for (const pool of pools) {
        const { rows } = await pool.query(`select count(*)::int as n from pg_views where schemaname = 'log_tables'`);
        expect(rows[0].n).toBeGreaterThanOrEqual(LOG_SOURCES.length);
      }
      const roles = await p.pool.query(`select count(*)::int as n from pg_roles where rolname = 'dash_logs_reader'`);
      expect(roles.rows[0].n).toBe(1);
    } finally {
      for (const db of dbs) await db.destroy();
      for (const d of others) await d.drop();
    }
  });
});

describe('POST /:ref/explorer/query', () => {
  it('returns the project’s rows in the range, typed columns and the histogram', async () => {
    const { status, body } = await query(
      `select "timestamp", metadata->>'path' as path, (metadata->>'status')::int as status, metadata, count(*) over () as n from edge_logs order by "timestamp"`,
    );
    expect(status).toBe(200);
    expect(check(explorerRoutes.query.response, body)).toBeNull();
    expect(body.columns).toEqual([
      { name: 'timestamp', type: 'timestamp with time zone' },
      { name: 'path', type: 'text' },
      { name: 'status', type: 'integer' },
      { name: 'metadata', type: 'jsonb' },
      { name: 'n', type: 'bigint' },
    ]);
    expect(body.rows.map((r) => r[1])).toEqual(['/rest/v1/broken', '/rest/v1/missing', '/rest/v1/todos']);
    expect(body.rows[0]![0]).toBe(minutesAgo(20, now).toISOString());
    expect(body.rows[0]![2]).toBe(500);
    expect(body.rows[0]![3]).toMatchObject({ path: '/rest/v1/broken', status: 500 });
    expect(body.rows[0]![4]).toBe(3);
    expect(body.row_count).toBe(3);
    expect(body.truncated).toBe(false);
    expect(new Date(body.range.to).getTime() - new Date(body.range.from).getTime()).toBe(3_600_000);

    const histogram = body.histogram!;
    expect(histogram.tables).toEqual(['edge_logs']);
    expect(histogram.interval_seconds).toBe(60);
    expect(histogram.buckets.length).toBeGreaterThanOrEqual(60);
    expect(histogram.buckets.length).toBeLessThanOrEqual(61);
    expect(histogram.buckets.reduce((sum, b) => sum + b.count, 0)).toBe(3);
    const starts = histogram.buckets.map((b) => new Date(b.start).getTime());
    expect(starts.every((t, i) => i === 0 || t - starts[i - 1]! === 60_000)).toBe(true);
  });

  it('applies a custom range', async () => {
    const { body } = await query(`select metadata->>'path' from edge_logs order by "timestamp"`, {
      from: minutesAgo(180, now).toISOString(),
      to: minutesAgo(15, now).toISOString(),
    });
    expect(body.rows).toEqual([['/rest/v1/old'], ['/rest/v1/broken']]);
    expect(body.histogram!.interval_seconds).toBe(300);
  });

  it('counts the histogram in the tables the query reads, or edge_logs when it reads none', async () => {
    const pg = await query(`select event_message from postgres_logs`);
    expect(pg.body.rows).toEqual([['relation "nope" does not exist']]);
    expect(pg.body.histogram!.tables).toEqual(['postgres_logs']);
    expect(pg.body.histogram!.buckets.reduce((s, b) => s + b.count, 0)).toBe(1);
    const both = await query(`select id from edge_logs union all select id from postgres_logs`);
    expect(both.body.histogram!.tables).toEqual(['edge_logs', 'postgres_logs']);
    expect(both.body.histogram!.buckets.reduce((s, b) => s + b.count, 0)).toBe(4);
    const none = await query(`select 1 as one`);
    expect(none.body.histogram!.tables).toEqual(['edge_logs']);
    expect(none.body.rows).toEqual([[1]]);
  });

  it('caps the rows it sends and counts the rest', async () => {
    const { body } = await query(`select g from generate_series(1, 2500) g`);
    expect(body.rows).toHaveLength(LOG_EXPLORER_MAX_ROWS);
    expect(body.rows.at(-1)).toEqual([LOG_EXPLORER_MAX_ROWS]);
    expect(body.row_count).toBe(LOG_EXPLORER_MAX_ROWS);
    expect(body.truncated).toBe(true);
    const exact = await query(`select g from generate_series(1, ${LOG_EXPLORER_MAX_ROWS}) g`);
    expect(exact.body.truncated).toBe(false);
  });

  it('keeps the query as written: its order, limit, duplicate column names, trailing semicolon and comment', async () => {
    const { status, body } = await query(`select 2 as a, 1 as a, metadata->>'path' as p from edge_logs order by "timestamp" desc limit 2; -- newest two`);
    expect(status).toBe(200);
    expect(body.columns.map((c) => c.name)).toEqual(['a', 'a', 'p']);
    expect(body.rows).toEqual([[2, 1, '/rest/v1/todos'], [2, 1, '/rest/v1/missing']]);
  });

  it.each(['owner', 'administrator', 'developer', 'read_only'] as OrgRole[])('lets a %s run queries', async (role) => {
    const { status, body } = await query(`select count(*) as n from edge_logs`, { preset: '1h' }, userHeaders({ [REF]: role }, `member-${role}`));
    expect(status).toBe(200);
    expect(body.rows).toEqual([[3]]);
  });

  it('refuses callers who are not members, anonymous callers and services', async () => {
    const stranger = await query(`select 1`, { preset: '1h' }, userHeaders({ [OTHER]: 'owner' }));
    expect(stranger.status).toBe(404);
    expect((await query(`select 1`, { preset: '1h' }, {})).status).toBe(401);
    expect((await query(`select 1`, { preset: '1h' }, serviceHeaders())).status).toBe(401);
  });

  it('shows another project only its own events', async () => {
    const { body } = await query(`select metadata->>'path' from edge_logs`, { preset: '1h' }, userHeaders({ [OTHER]: 'read_only' }), OTHER);
    expect(body.rows).toEqual([['/rest/v1/secret-of-b']]);
  });

  it.each([
    ['a write', `insert into edge_logs (event_message) values ('x')`, ExplorerMessages.onlySelect],
    ['another schema’s table', `select * from logs.events`, ExplorerMessages.notLogTable('logs.events')],
    ['the catalog’s passwords', `select * from pg_authid`, ExplorerMessages.notLogTable('pg_authid')],
    ['set_config', `select set_config('dash.project_ref', '${OTHER}', true), * from edge_logs`, ExplorerMessages.functionNotAllowed('set_config')],
    ['pg_sleep', `select pg_sleep(30)`, ExplorerMessages.functionNotAllowed('pg_sleep')],
    ['a second statement', `select 1; select * from logs.events`, ExplorerMessages.oneStatement],
    ['a SET', `set role postgres`, ExplorerMessages.onlySelect],
    ['a syntax error', `select * fro edge_logs`, 'syntax error at or near "fro"'],
  ])('refuses %s with a clear 400 and nothing else', async (_name, sql, message) => {
    const { status, body } = await query(sql);
    expect(status).toBe(400);
    expect(body.message).toBe(message);
    expect(Object.keys(body).sort()).toEqual(expect.arrayContaining(['error', 'message', 'statusCode']));
    expect(body).not.toHaveProperty('rows');
    expect(JSON.stringify(body)).not.toContain('secret-of-b');
  });

  it('returns Postgres’s errors as 400s positioned in the query', async () => {
    const { status, body } = await query(`select nope from edge_logs`);
    expect(status).toBe(400);
    expect(body.code).toBe('42703');
    expect(body.message).toBe('column "nope" does not exist');
    expect(body.position).toBe(8);
    // After a comment and white space before the statement, and after characters of several bytes.
    const sql = `-- é\n  select 'é', missing_column from edge_logs`;
    const later = await query(sql);
    expect(later.body.position).toBe(sql.indexOf('missing_column') + 1);
  });

  it('refuses a range that ends before it starts, or is too long', async () => {
    const backwards = await query(`select 1`, { from: minutesAgo(5, now).toISOString(), to: minutesAgo(10, now).toISOString() });
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toBe(LogTimeRangeMessages.endBeforeStart);
    const long = await query(`select 1`, { from: new Date(now - 40 * 86_400_000).toISOString(), to: new Date(now).toISOString() });
    expect(long.body.message).toBe(LogTimeRangeMessages.tooLong);
    const res = await p.app.inject({ method: 'POST', url: `/${REF}/explorer/query`, headers: userHeaders({ [REF]: 'owner' }), payload: { sql: 'select 1', range: { preset: '2h' } } });
    expect(res.statusCode).toBe(400);
  });
});

describe('the runner', () => {
  const run = ({ sql = 'select 1', ...overrides }: Partial<ExplorerRun> & { sql?: string }): Promise<unknown> =>
    runExplorerQuery(p.explorerPool, {
      ref: REF,
      statement: sql,
      offset: 0,
      from: minutesAgo(60, now),
      to: new Date(now),
      tables: [],
      histogram: false,
      maxRows: 10,
      statementTimeoutMs: 10_000,
      ...overrides,
    });

  it('cancels a query at the statement timeout with a clear 400', async () => {
    const error = await run({ sql: 'select count(*) from generate_series(1, 500000000)', statementTimeoutMs: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 400, message: ExplorerMessages.timeout, code: '57014' });
  });

  it('runs as the reader in a read-only transaction, so a query past the guard still cannot reach logs.events', async () => {
    await expect(run({ sql: 'select * from logs.events' })).rejects.toMatchObject({ statusCode: 400, code: '42501' });
    await expect(run({ sql: `select 1 from pg_catalog.pg_authid` })).rejects.toMatchObject({ statusCode: 400, code: '42501' });
    await expect(run({ sql: `select current_user, current_setting('transaction_read_only'), current_setting('search_path')` })).resolves.toMatchObject({
      rows: [['dash_logs_reader', 'on', 'log_tables, pg_catalog, pg_temp']],
    });
    // The pool's connections come back as the explorer's own role.
    const { rows } = await p.explorerPool.query('select current_user = session_user as own');
    expect(rows[0].own).toBe(true);
  });
});

describe('GET /:ref/explorer/recent', () => {
  const recent = async (sub: string) => {
    const res = await p.app.inject({ method: 'GET', url: `/${REF}/explorer/recent`, headers: userHeaders({ [REF]: 'developer' }, sub) });
    expect(res.statusCode).toBe(200);
    expect(check(explorerRoutes.recent.response, res.json())).toBeNull();
    return (res.json() as { queries: Array<{ sql: string }> }).queries.map((q) => q.sql);
  };

  it('lists the caller’s queries that ran, newest first, once each', async () => {
    const headers = userHeaders({ [REF]: 'developer' }, 'recent-user');
    await query('select 1 as first', { preset: '1h' }, headers);
    await query('select 2 as second', { preset: '1h' }, headers);
    await query('select * from logs.events', { preset: '1h' }, headers);
    await query('select 1 as first', { preset: '1h' }, headers);
    expect(await recent('recent-user')).toEqual(['select 1 as first', 'select 2 as second']);
    expect(await recent('someone-else')).toEqual([]);
  });

  it(`keeps the last ${LOG_EXPLORER_RECENT_LIMIT}`, async () => {
    for (let i = 0; i < LOG_EXPLORER_RECENT_LIMIT + 5; i++) await recordRecentQuery(p.pool, 'busy-user', REF, `select ${i}`);
    const list = await recent('busy-user');
    expect(list).toHaveLength(LOG_EXPLORER_RECENT_LIMIT);
    expect(list[0]).toBe(`select ${LOG_EXPLORER_RECENT_LIMIT + 4}`);
    expect(list).not.toContain('select 0');
    // The oldest kept query run again moves to the top; still as many are kept, none twice.
    await recordRecentQuery(p.pool, 'busy-user', REF, 'select 5');
    const again = await recent('busy-user');
    expect(again).toHaveLength(LOG_EXPLORER_RECENT_LIMIT);
    expect(again[0]).toBe('select 5');
    expect(new Set(again).size).toBe(LOG_EXPLORER_RECENT_LIMIT);
    expect(again).toContain('select 6');
  });
});
