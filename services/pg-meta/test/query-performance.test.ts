import pg from 'pg';
import { advisorRoutes, ErrorReply, type OrgRole, type SlowStatement } from '@dash/contracts';
import { createTestDatabase, testServerUrl, userHeaders } from '@dash/service-kit/dist/testing';
import { resetMessages } from '../src/routes/advisors';
import { as, asDbRole, contractValidator, setupProject, type Project } from './helpers';

// Query performance from pg_stat_statements on a real project database, and its reset (this database only).

let p: Project;
const check = contractValidator();
let loaded = false;

beforeAll(async () => {
  p = await setupProject();
  loaded = (await p.superuserSql(`select current_setting('pg_stat_statements.max', true) is not null as loaded`)).rows[0].loaded;
  await p.sql('create table public.qp_items (id int primary key, label text)');
  await p.sql(`insert into public.qp_items select g, 'item ' || g from generate_series(1, 2000) g`);
});
afterAll(() => p.close());

const get = (query = '', role: OrgRole = 'owner') => p.app.inject({ method: 'GET', url: `/default/query-performance${query}`, headers: as(role) });
const reset = (role: OrgRole = 'owner') => p.app.inject({ method: 'POST', url: '/default/query-performance/reset', headers: as(role) });

async function statements(query = ''): Promise<SlowStatement[]> {
  const res = await get(query);
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(check(advisorRoutes.queryPerformance.response, body)).toBeNull();
  expect(body.state).toBe('ready');
  return body.statements;
}

const texts = (list: SlowStatement[]) => list.map((s) => s.query);

describe('GET /:ref/query-performance', () => {
  it('lists this database\'s statements by total time, or by mean time', async () => {
    if (!loaded) {
      expect((await get()).json()).toEqual({ state: 'not_loaded' });
      return;
    }
    // Many quick calls (largest total) and one slow call (largest mean).
    for (let i = 0; i < 30; i += 1) await p.sql('select count(*) from public.qp_items where id > $1', [i]);
    await p.sql('select pg_sleep(0.2), count(*) from public.qp_items where label like $1', ['item 1%']);
    await p.sql('select pg_sleep(0.05) from public.qp_items where id = $1', [1]);

    const byTotal = await statements();
    const many = byTotal.find((s) => s.query === 'select count(*) from public.qp_items where id > $1');
    expect(many).toMatchObject({ calls: 30, rows: 30, role: expect.stringMatching(/_admin$/) });
    expect(byTotal.map((s) => s.total_ms)).toEqual([...byTotal.map((s) => s.total_ms)].sort((a, b) => b - a));

    const byMean = await statements('?order=mean');
    expect(texts(byMean)[0]).toBe('select pg_sleep($2), count(*) from public.qp_items where label like $1');
    expect(byMean.map((s) => s.mean_ms)).toEqual([...byMean.map((s) => s.mean_ms)].sort((a, b) => b - a));
    expect(byMean.every((s) => s.query !== '<insufficient privilege>')).toBe(true);
  });

  it("lists no other database's statements, not even the project admin role's own", async () => {
    if (!loaded) return;
    // The project admin role in another database of the server (a fresh one: every role may connect).
    const db = await createTestDatabase('qp_other');
    const elsewhereUrl = new URL(p.url);
    elsewhereUrl.pathname = `/${db.name}`;
    const other = new pg.Client({ connectionString: elsewhereUrl.toString() });
    try {
      await other.connect();
      await other.query(`select pg_sleep(0.5), count(*) from pg_catalog.pg_class where relname = 'qp_elsewhere'`);
    } finally {
      await other.end();
      await db.drop();
    }
    const elsewhere = 'select pg_sleep($1), count(*) from pg_catalog.pg_class where relname = $2';
    // The server counted the statement there (its superuser sees it), but the project's roles may not read
    // the server-wide view at all...
    const seen = await p.superuserSql('select count(*)::int as n from extensions.pg_stat_statements where query = $1', [elsewhere]);
    expect(seen.rows).toEqual([{ n: 1 }]);
    await expect(p.sql('select count(*) from extensions.pg_stat_statements')).rejects.toMatchObject({ code: '42501' });
    // ...and neither query performance nor the database report lists it, slowest as it is.
    expect(texts(await statements())).not.toContain(elsewhere);
    expect(texts(await statements('?order=mean'))).not.toContain(elsewhere);
    const report = await p.app.inject({ method: 'GET', url: '/default/reports/database', headers: as('owner') });
    expect(report.statusCode).toBe(200);
    expect(texts(report.json().statements.statements)).not.toContain(elsewhere);
  });

  it('refuses an unknown order with 400', async () => {
    const res = await get('?order=fastest');
    expect(res.statusCode).toBe(400);
    expect(check(ErrorReply, res.json())).toBeNull();
  });

  it('says when the extension is not created in the database', async () => {
    if (!loaded) return;
    await p.superuserSql('drop extension pg_stat_statements');
    try {
      expect((await get()).json()).toEqual({ state: 'not_installed' });
      const refused = await reset();
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(resetMessages.notInstalled);
    } finally {
      await p.superuserSql('create extension pg_stat_statements with schema extensions');
    }
  });
});

describe('POST /:ref/query-performance/reset', () => {
  it('forgets this database\'s statements and no other database\'s', async () => {
    if (!loaded) {
      expect((await reset()).statusCode).toBe(409);
      return;
    }
    // A sleep ranks it among the 50 slowest, above the project bootstrap's own statements.
    await p.sql('select label from public.qp_items where id = $1 and pg_sleep(0.2) is not null', [7]);
    // A statement in another database of the server (the test server's own).
    const other = new pg.Client({ connectionString: testServerUrl() });
    await other.connect();
    try {
      // (pg_stat_statements keys statements by their shape, aliases aside: this one is unlike any other.)
      await other.query(`select count(*) from pg_catalog.pg_class where relname = 'qp_other_database' and relpages > 42`);
      expect(texts(await statements())).toContain('select label from public.qp_items where id = $1 and pg_sleep($2) is not null');

      const res = await reset();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      expect(texts(await statements())).not.toContain('select label from public.qp_items where id = $1 and pg_sleep($2) is not null');
      // The superuser sees every database's statements.
      const kept = await p.superuserSql(
        `select count(*)::int as n from extensions.pg_stat_statements
         where query = 'select count(*) from pg_catalog.pg_class where relname = $1 and relpages > $2' and dbid = (select oid from pg_database where datname = $1)`,
        [new URL(testServerUrl()).pathname.slice(1)],
      );
      expect(kept.rows).toEqual([{ n: 1 }]);
    } finally {
      await other.end();
    }
  });

  it('is the reset function\'s alone: the project admin role may not call pg_stat_statements_reset itself', async () => {
    await expect(p.sql('select extensions.pg_stat_statements_reset(0, 0, 0)')).rejects.toMatchObject({ code: '42501' });
    await expect(p.sql('select extensions.dash_reset_statements()')).resolves.toBeDefined();
    // Other roles of the project may not call the function.
    expect(await asDbRole(p.url, 'authenticated', {}, 'select extensions.dash_reset_statements()')).toEqual({ code: '42501' });
  });

  it('answers 409 with what to do on a project whose bootstrap did not make the function', async () => {
    if (!loaded) return;
    const admin = new URL(p.url).username;
    await p.superuserSql(`revoke execute on function extensions.dash_reset_statements() from "${admin}"`);
    try {
      const res = await reset();
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(resetMessages.noFunction);
    } finally {
      await p.superuserSql(`grant execute on function extensions.dash_reset_statements() to "${admin}"`);
    }
  });

  it('needs tenant_sql_admin_write; reading needs tenant_sql_admin_read', async () => {
    for (const role of ['owner', 'administrator', 'developer', 'read_only'] as const) expect((await get('', role)).statusCode).toBe(200);
    const refused = await reset('read_only');
    expect(refused.statusCode).toBe(403);
    expect(check(ErrorReply, refused.json())).toBeNull();
    expect((await reset('developer')).statusCode).toBe(loaded ? 200 : 409);
    expect((await p.app.inject({ method: 'POST', url: '/default/query-performance/reset', headers: userHeaders({ other: 'owner' }) })).statusCode).toBe(404);
  });
});
