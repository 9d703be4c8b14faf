import { reportRoutes, type OrgRole } from '@dash/contracts';
import { userHeaders } from '@dash/service-kit/dist/testing';
import { as, contractValidator, setupProject, type Project } from './helpers';

// The built-in database report, on a real project database, read as the project admin role.

let p: Project;
const check = contractValidator();

beforeAll(async () => {
  p = await setupProject();
  await p.sql(`create table public.big_one as select g as id, repeat('x', 200) as payload from generate_series(1, 5000) g`);
  await p.sql(`create table public.small_one (id int primary key)`);
  await p.sql(`analyze public.big_one`);
  // Slow enough to be among the slowest statements of the database.
  await p.sql(`select pg_sleep(0.3), count(*) from public.big_one where id > $1`, [10]);
});
afterAll(() => p.close());

const report = (role: OrgRole = 'owner', headers = as(role)) => p.app.inject({ method: 'GET', url: '/default/reports/database', headers });

/** Whether the test server preloads pg_stat_statements (the embedded one does; a DATABASE_URL server may not). */
async function preloaded(): Promise<boolean> {
  const { rows } = await p.superuserSql(`select current_setting('pg_stat_statements.max', true) is not null as loaded`);
  return rows[0].loaded;
}

describe('GET /:ref/reports/database', () => {
  it('reports size, connections, cache hit ratios and the largest tables', async () => {
    const res = await report();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(check(reportRoutes.database.response, body)).toBeNull();
    expect(body.database_size_bytes).toBeGreaterThan(1_000_000);
    expect(body.max_connections).toBeGreaterThan(0);
    // The report's own backend is active on the project database.
    expect(body.connections.find((c: { state: string }) => c.state === 'active')?.count).toBeGreaterThanOrEqual(1);
    for (const ratio of [body.cache_hit_ratio.tables, body.cache_hit_ratio.indexes]) {
      if (ratio !== null) expect(ratio).toBeGreaterThanOrEqual(0);
      if (ratio !== null) expect(ratio).toBeLessThanOrEqual(1);
    }
    expect(body.largest_tables[0]).toMatchObject({ schema: 'public', name: 'big_one', row_estimate: 5000 });
    expect(body.largest_tables[0].total_bytes).toBeGreaterThan(body.largest_tables[0].index_bytes);
    // Largest first, every schema of the project's own (the auth tables count, and outweigh a tiny public one).
    const sizes = body.largest_tables.map((t: { total_bytes: number }) => t.total_bytes);
    expect(sizes).toEqual([...sizes].sort((a: number, b: number) => b - a));
    expect(body.largest_tables.some((t: { schema: string }) => t.schema === 'auth')).toBe(true);
    // System catalogs are not the project's tables.
    expect(body.largest_tables.some((t: { schema: string }) => t.schema === 'pg_catalog' || t.schema === 'information_schema')).toBe(false);
  });

  it('lists the slowest statements when pg_stat_statements is loaded, and says what is missing otherwise', async () => {
    const body = (await report()).json();
    if (!(await preloaded())) {
      expect(body.statements).toEqual({ state: 'not_loaded' });
      return;
    }
    expect(body.statements.state).toBe('ready');
    const texts = body.statements.statements.map((s: { query: string }) => s.query);
    // Normalized (constants as $n), with the role that ran it, slowest first.
    expect(texts[0]).toBe('select pg_sleep($2), count(*) from public.big_one where id > $1');
    expect(body.statements.statements[0]).toMatchObject({ calls: 1, rows: 1, role: expect.stringMatching(/_admin$/) });
    expect(body.statements.statements.every((s: { query: string }) => s.query !== '<insufficient privilege>')).toBe(true);

    await p.superuserSql('drop extension pg_stat_statements');
    try {
      expect((await report()).json().statements).toEqual({ state: 'not_installed' });
    } finally {
      await p.superuserSql('create extension pg_stat_statements with schema extensions');
    }
  });

  it('is made by the project bootstrap in schema extensions, readable by the project roles', async () => {
    const { rows } = await p.superuserSql(
      `select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_stat_statements'`,
    );
    expect(rows).toEqual([{ nspname: 'extensions' }]);
    const admin = await p.sql(`select has_schema_privilege('extensions', 'usage') as usage, rolsuper from pg_roles where rolname = current_user`);
    expect(admin.rows).toEqual([{ usage: true, rolsuper: false }]);
  });

  it('is for members with analytics read, every role; not for other projects\' members', async () => {
    for (const role of ['owner', 'administrator', 'developer', 'read_only'] as const) {
      expect((await report(role)).statusCode).toBe(200);
    }
    // A member of another project learns nothing about this one (the kit answers 404).
    expect((await report('owner', userHeaders({ other: 'owner' }))).statusCode).toBe(404);
    expect((await p.app.inject({ method: 'GET', url: '/default/reports/database' })).statusCode).toBe(401);
    const unknown = await p.app.inject({ method: 'GET', url: '/nope/reports/database', headers: userHeaders({ nope: 'owner' }) });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('a read-only run (custom report blocks)', () => {
  const run = (query: string, readOnly?: boolean) =>
    p.app.inject({ method: 'POST', url: '/default/sql/run', headers: as('owner'), payload: { query, ...(readOnly === undefined ? {} : { readOnly }) } });

  it('reads, refuses writes with Postgres\'s error, and leaves nothing behind', async () => {
    const read = await run('select count(*)::int as n from public.small_one', true);
    expect(read.statusCode).toBe(200);
    expect(read.json().results[0].rows).toEqual([[0]]);
    const write = await run('insert into public.small_one values (1)', true);
    expect(write.statusCode).toBe(400);
    expect(write.json().code).toBe('25006');
    // The refused write left the table empty.
    expect((await p.sql('select count(*)::int as n from public.small_one')).rows).toEqual([{ n: 0 }]);
    // Without the flag the editor's run commits as before.
    expect((await run('insert into public.small_one values (2)')).statusCode).toBe(200);
    expect((await p.sql('select count(*)::int as n from public.small_one')).rows).toEqual([{ n: 1 }]);
  });
});
