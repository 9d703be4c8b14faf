import { Messages, SQL_EDITOR_MAX_ROWS, type QueryResult } from '@dash/contracts';
import { userHeaders } from '@dash/service-kit/dist/testing';
import type { OrgRole } from '@dash/contracts';
import { as, setupProject, type Project } from './helpers';

let p: Project;

beforeAll(async () => {
  p = await setupProject();
});

afterAll(async () => {
  await p.close();
});

async function run(query: string, role: OrgRole = 'owner', app = p.app) {
  const res = await app.inject({ method: 'POST', url: '/default/query', headers: as(role), payload: { query } });
  return { status: res.statusCode, body: res.json() as QueryResult & { message: string; code?: string }, raw: res.body };
}

const tableExists = async (name: string) =>
  (await p.sql(`select to_regclass($1) is not null as exists`, [name])).rows[0].exists as boolean;

describe('POST /:ref/query', () => {
  it('runs a SELECT and describes its columns', async () => {
    const { status, body } = await run(`select 1 as one, 'a'::text as letter, true as yes`);
    expect(status).toBe(200);
    expect(body.columns).toEqual([
      { name: 'one', type: 'int4' },
      { name: 'letter', type: 'text' },
      { name: 'yes', type: 'bool' },
    ]);
    expect(body.rows).toEqual([{ one: 1, letter: 'a', yes: true }]);
    expect(body).toMatchObject({ command: 'SELECT', rowCount: 1, truncated: false });
    expect(typeof body.durationMs).toBe('number');
  });

  it('replies with the last result that has columns', async () => {
    const many = await run(`create table public.multi (id int); insert into public.multi values (1), (2); select id from public.multi order by id; `);
    expect(many.status).toBe(200);
    expect(many.body.command).toBe('SELECT');
    expect(many.body.rows).toEqual([{ id: 1 }, { id: 2 }]);

    const selectThenUpdate = await run(`select 'first' as x; update public.multi set id = id + 10`);
    expect(selectThenUpdate.body.rows).toEqual([{ x: 'first' }]);

    const noColumns = await run(`insert into public.multi values (3); delete from public.multi where id > 10`);
    expect(noColumns.body).toMatchObject({ command: 'DELETE', rowCount: 2, columns: [], rows: [] });
  });

  it('lets an owner change the schema and commits it', async () => {
    const { status, body } = await run(`create table public.made_by_owner (id int primary key)`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ command: 'CREATE', rowCount: null });
    expect(await tableExists('public.made_by_owner')).toBe(true);
  });

  it('rolls the whole run back when a statement fails', async () => {
    const { status, body } = await run(`create table public.half_done (id int); select * from missing_table`);
    expect(status).toBe(400);
    expect(body.code).toBe('42P01');
    expect(body.message).toBe('relation "missing_table" does not exist');
    expect(await tableExists('public.half_done')).toBe(false);
  });

  it('lets a developer write', async () => {
    const { status, body } = await run(`create table public.by_developer (id int)`, 'developer');
    expect(status).toBe(200);
    expect(body.command).toBe('CREATE');
  });

  it('refuses a read_only member: a read-only transaction is no boundary for the database owner', async () => {
    for (const query of ['select 1', `select pg_read_file('/etc/hostname')`, 'create table public.sneaky (id int)']) {
      const { status, body } = await run(query, 'read_only');
      expect(status).toBe(403);
      expect(body.message).toBe('You need additional permissions to do this');
    }
    expect(await tableExists('public.sneaky')).toBe(false);
  });

  it('answers a syntax error with 400 and its SQLSTATE', async () => {
    const { status, body } = await run(`selec 1`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: '42601' });
    expect(body.message).toBe('syntax error at or near "selec"');
  });

  it('rejects an empty query', async () => {
    for (const query of ['', '   \n\t', '-- just a comment', ';']) {
      const { status, body } = await run(query);
      expect(status).toBe(400);
      expect(body.message).toBe(Messages.queryEmpty);
    }
  });

  it('caps rows at the editor limit and says so', async () => {
    const { status, body } = await run(`select g from generate_series(1, ${SQL_EDITOR_MAX_ROWS + 500}) g`);
    expect(status).toBe(200);
    expect(body.rows).toHaveLength(SQL_EDITOR_MAX_ROWS);
    expect(body.rows[SQL_EDITOR_MAX_ROWS - 1]).toEqual({ g: SQL_EDITOR_MAX_ROWS });
    expect(body.truncated).toBe(true);
    expect(body.rowCount).toBe(SQL_EDITOR_MAX_ROWS + 500);
    const exact = await run(`select g from generate_series(1, ${SQL_EDITOR_MAX_ROWS}) g`);
    expect(exact.body.truncated).toBe(false);
    expect(exact.body.rows).toHaveLength(SQL_EDITOR_MAX_ROWS);
  });

  it('serializes every kind of value without dropping any', async () => {
    const { status, body, raw } = await run(`
      select now() as ts, '\\xdeadbeef'::bytea as bin, 9223372036854775807::bigint as big,
             '2024-02-03'::date as day, '2024-02-03 04:05:06'::timestamp as local_ts,
             '{"a": [1, {"b": null}]}'::jsonb as doc, array[1, 2]::int[] as ints, 1.50::numeric as num,
             interval '1 hour' as span, null::text as nothing, 'NaN'::float8 as nan,
             array[now()] as stamps, array['\\x01'::bytea] as bins, '(1,2)'::point as pt`);
    expect(status).toBe(200);
    const row = body.rows[0]!;
    expect(row.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(row).toMatchObject({
      bin: '\\xdeadbeef',
      big: '9223372036854775807',
      day: '2024-02-03',
      local_ts: '2024-02-03 04:05:06',
      doc: { a: [1, { b: null }] },
      ints: [1, 2],
      num: '1.50',
      span: '01:00:00',
      nothing: null,
      nan: 'NaN',
      bins: ['\\x01'],
      pt: { x: 1, y: 2 },
    });
    expect((row.stamps as string[])[0]).toMatch(/Z$/);
    // The reply schema's unknown-valued record keeps every key, nulls included.
    expect(Object.keys(JSON.parse(raw).rows[0])).toHaveLength(14);
    expect(body.columns.map((c) => c.type)).toEqual([
      'timestamptz', 'bytea', 'int8', 'date', 'timestamp', 'jsonb', '_int4', 'numeric', 'interval', 'text', 'float8',
      '_timestamptz', '_bytea', 'point',
    ]);
  });

  it('names user-defined column types', async () => {
    await p.sql(`create type public.mood as enum ('happy', 'sad')`);
    const { body } = await run(`select 'happy'::public.mood as feeling`);
    expect(body.columns).toEqual([{ name: 'feeling', type: 'mood' }]);
    expect(body.rows).toEqual([{ feeling: 'happy' }]);
  });

  it('stops a statement at the timeout with a 400 and SQLSTATE 57014', async () => {
    const quick = await p.extraApp({ sqlEditor: { statementTimeoutMs: 200 } });
    const { status, body } = await run(`select pg_sleep(5)`, 'owner', quick);
    expect(status).toBe(400);
    expect(body.code).toBe('57014');
    expect(body.message).toBe('canceling statement due to statement timeout');
  });

  it('leaves no session state behind on the pooled connection', async () => {
    const single = await p.extraApp({}, 1);
    const changed = await run(`set role anon; set search_path = auth; create temp table leftover (id int); select current_user as u`, 'owner', single);
    expect(changed.body.rows).toEqual([{ u: 'anon' }]);
    const after = await run(`select current_user as u, current_setting('search_path') as path, to_regclass('pg_temp.leftover') is null as gone`, 'owner', single);
    expect(after.body.rows).toEqual([{ u: 'postgres', path: '"$user", public', gone: true }]);
    const timeout = await run(`show statement_timeout`, 'owner', single);
    expect(timeout.body.rows).toEqual([{ statement_timeout: '1min' }]);
    // Session settings of the text do not disturb the service's own work after the run.
    const hostile = await run(`set statement_timeout = 1; set role anon; select 1 as x`, 'owner', single);
    expect(hostile.body.columns).toEqual([{ name: 'x', type: 'int4' }]);
    const again = await run(`select current_setting('statement_timeout') as t, current_user as u`, 'owner', single);
    expect(again.body.rows).toEqual([{ t: '1min', u: 'postgres' }]);
  });

  it('answers 503 when the database ends the session, and recovers', async () => {
    const killed = await run(`select pg_terminate_backend(pg_backend_pid())`);
    expect(killed.status).toBe(503);
    expect(killed.body.message).toBe('The project database is unavailable');
    const next = await run(`select 1 as ok`);
    expect(next.body.rows).toEqual([{ ok: 1 }]);
  });

  it('checks access', async () => {
    const outsider = await p.app.inject({ method: 'POST', url: '/default/query', headers: userHeaders({ other: 'owner' }), payload: { query: 'select 1' } });
    expect(outsider.statusCode).toBe(404);
    const anonymous = await p.app.inject({ method: 'POST', url: '/default/query', payload: { query: 'select 1' } });
    expect(anonymous.statusCode).toBe(401);
    const noBody = await p.app.inject({ method: 'POST', url: '/default/query', headers: as('owner'), payload: {} });
    expect(noBody.statusCode).toBe(400);
  });
});
