import { randomUUID } from 'node:crypto';
import { Messages, ServiceMessages, SQL_EDITOR_MAX_ROWS, type ErrorReply, type QueryRun, type SqlRunAs } from '@dash/contracts';
import { TEST_SECRET, userHeaders } from '@dash/service-kit/dist/testing';
import type { OrgRole } from '@dash/contracts';
import { buildApp } from '../src/app';
import { as, setupProject, type Project } from './helpers';

let p: Project;

beforeAll(async () => {
  p = await setupProject();
});

afterAll(async () => {
  await p.close();
});

type Reply = QueryRun & ErrorReply;

async function run(query: string, role: OrgRole = 'owner', app = p.app, extra: { runAs?: SqlRunAs; runId?: string } = {}) {
  const res = await app.inject({ method: 'POST', url: '/default/sql/run', headers: as(role), payload: { query, ...extra } });
  const body = res.json() as Reply;
  return { status: res.statusCode, body, raw: res.body, last: body.results?.at(-1) };
}

/** The last result's rows as objects by column name (fine where names are unique). */
const objects = (body: Reply) => {
  const last = body.results.at(-1)!;
  return last.rows.map((row) => Object.fromEntries(last.columns.map((c, i) => [c.name, row[i]])));
};

const tableExists = async (name: string) =>
  (await p.sql(`select to_regclass($1) is not null as exists`, [name])).rows[0].exists as boolean;

describe('POST /:ref/sql/run', () => {
  it('runs a SELECT and describes its columns', async () => {
    const { status, body, last } = await run(`select 1 as one, 'a'::text as letter, true as yes`);
    expect(status).toBe(200);
    expect(last!.columns).toEqual([
      { name: 'one', type: 'int4' },
      { name: 'letter', type: 'text' },
      { name: 'yes', type: 'bool' },
    ]);
    expect(last!.rows).toEqual([[1, 'a', true]]);
    expect(last).toMatchObject({ command: 'SELECT', rowCount: 1, truncated: false });
    expect(typeof body.durationMs).toBe('number');
  });

  it('keeps columns of the same name apart: rows are by position', async () => {
    const { last } = await run(`select 1 as a, 2 as a`);
    expect(last!.columns.map((c) => c.name)).toEqual(['a', 'a']);
    expect(last!.rows).toEqual([[1, 2]]);
    await p.sql(`create table public.parents (id int primary key, name text); create table public.kids (id int primary key, parent_id int, name text);
                 insert into public.parents values (1, 'Ada'); insert into public.kids values (7, 1, 'Bo')`);
    const join = await run(`select * from public.parents p join public.kids k on k.parent_id = p.id`);
    expect(join.last!.columns.map((c) => c.name)).toEqual(['id', 'name', 'id', 'parent_id', 'name']);
    expect(join.last!.rows).toEqual([[1, 'Ada', 7, 1, 'Bo']]);
  });

  it("returns every statement's result, rows affected and NOTICEs, in order", async () => {
    const many = await run(`
      create table public.multi (id int);
      insert into public.multi values (1), (2);
      do $$ begin raise notice 'counted %', (select count(*) from public.multi); end $$;
      select id from public.multi order by id;
      update public.multi set id = id + 10`);
    expect(many.status).toBe(200);
    expect(many.body.results.map((r) => [r.command, r.rowCount])).toEqual([
      ['CREATE', null],
      ['INSERT', 2],
      ['DO', null],
      ['SELECT', 2],
      ['UPDATE', 2],
    ]);
    expect(many.body.results[3]!.rows).toEqual([[1], [2]]);
    expect(many.body.notices).toEqual([{ severity: 'NOTICE', message: 'counted 2' }]);
    expect(many.body.ranAs).toBe(new URL(p.url).username);
  });

  it('lets an owner change the schema and commits it', async () => {
    const { status, last } = await run(`create table public.made_by_owner (id int primary key)`);
    expect(status).toBe(200);
    expect(last).toMatchObject({ command: 'CREATE', rowCount: null });
    expect(await tableExists('public.made_by_owner')).toBe(true);
  });

  it('rolls the whole run back when a statement fails', async () => {
    const { status, body } = await run(`create table public.half_done (id int); select * from missing_table`);
    expect(status).toBe(400);
    expect(body.code).toBe('42P01');
    expect(body.message).toBe('relation "missing_table" does not exist');
    expect(await tableExists('public.half_done')).toBe(false);
  });

  it('answers an error at commit (a deferred constraint) as a statement error, and keeps nothing', async () => {
    await p.sql(`create table public.deferred (id int primary key, parent int references public.deferred deferrable initially deferred)`);
    const { status, body } = await run('insert into public.deferred values (1, 2)');
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: '23503', detail: 'Key (parent)=(2) is not present in table "deferred".' });
    expect((await p.sql('select count(*)::int as n from public.deferred')).rows[0].n).toBe(0);
  });

  it('lets a developer write', async () => {
    const { status, last } = await run(`create table public.by_developer (id int)`, 'developer');
    expect(status).toBe(200);
    expect(last!.command).toBe('CREATE');
  });

  it("runs a Read-only member's SQL as the read-only role: reads work, Postgres refuses every write", async () => {
    await p.sql(`create table public.ro_seen (id int); insert into public.ro_seen values (1)`);
    const read = await run(`select count(*)::int as n, current_user as me from public.ro_seen`, 'read_only');
    expect(read.status).toBe(200);
    expect(objects(read.body)).toEqual([{ n: 1, me: new URL(p.connections.read_only).username }]);
    // In the read-only transaction...
    const insert = await run(`insert into public.ro_seen values (2)`, 'read_only');
    expect(insert).toMatchObject({ status: 400, body: { code: '25006' } });
    // ...which the text may not leave (sql-run-read-only.test.ts has every way out).
    const leave = 'set default_transaction_read_only = off; commit;';
    for (const query of [`${leave} insert into public.ro_seen values (3)`, `${leave} create table public.sneaky (id int)`, `${leave} delete from public.ro_seen`]) {
      const { status, body } = await run(query, 'read_only');
      expect(status).toBe(400);
      expect(body.message).toBe(Messages.readOnlyRunRefused('SET default_transaction_read_only'));
    }
    expect(await tableExists('public.sneaky')).toBe(false);
    expect((await p.sql('select count(*)::int as n from public.ro_seen')).rows[0].n).toBe(1);
    // Nor may they pick another role to run as.
    const picked = await run('select 1', 'read_only', p.app, { runAs: { role: 'service_role' } });
    expect(picked).toMatchObject({ status: 403, body: { message: 'You need additional permissions to do this' } });
  });

  it("runs as a project role, not a superuser: what only a superuser may do fails with Postgres's error", async () => {
    for (const query of [`copy (select 1) to program 'true'`, `select pg_read_file('/etc/passwd')`, 'set role postgres', 'create role sneaky superuser']) {
      const { status, body } = await run(query);
      expect(status).toBe(400);
      expect(body.code).toBe('42501');
      expect(body.message).toMatch(/permission denied|must be superuser|privileges of/);
    }
  });

  it('runs as the picked role with its claims, so row-level security applies', async () => {
    const mine = '6f1d3c1e-2b8a-4c55-9a1e-0c7b2f4e9d10';
    await p.sql(`create table public.notes (id int, owner uuid, body text);
                 alter table public.notes enable row level security;
                 create policy "own notes" on public.notes for select to authenticated using (owner = auth.uid());
                 grant select on public.notes to anon, authenticated;
                 insert into public.notes values (1, '${mine}', 'mine'), (2, gen_random_uuid(), 'theirs')`);
    const asUser = await run('select body, current_user as me from public.notes', 'owner', p.app, { runAs: { role: 'authenticated', claims: { sub: mine } } });
    expect(objects(asUser.body)).toEqual([{ body: 'mine', me: 'authenticated' }]);
    expect(asUser.body.ranAs).toBe('authenticated');
    const asAnon = await run('select body from public.notes', 'owner', p.app, { runAs: { role: 'anon' } });
    expect(asAnon.last!.rows).toEqual([]);
    // The role holds even when the text ends the transaction itself (and our commit's warning then is not the text's).
    const escaped = await run('commit; select current_user as me', 'owner', p.app, { runAs: { role: 'anon' } });
    expect(objects(escaped.body)).toEqual([{ me: 'anon' }]);
    expect(escaped.body.notices).toEqual([]);
    const asService = await run('select count(*)::int as n from public.notes', 'owner', p.app, { runAs: { role: 'service_role' } });
    expect(objects(asService.body)).toEqual([{ n: 2 }]);
  });

  /** Waits until the project database runs a statement containing `marker`. */
  async function runningStatement(marker: string) {
    for (let i = 0; i < 200; i++) {
      const { rows } = await p.sql(`select count(*)::int as n from pg_stat_activity where state = 'active' and query like '%' || $1 || '%' and pid <> pg_backend_pid()`, [marker]);
      if (rows[0].n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no statement with ${marker} started`);
  }

  it('cancels a run from a second request within a second, and the pool keeps working', async () => {
    const single = await p.extraApp({}, 1);
    const runId = randomUUID();
    const sleeping = run('select pg_sleep(30) as cancel_me', 'owner', single, { runId });
    await runningStatement('cancel_me');
    const asked = Date.now();
    const cancel = await single.inject({ method: 'POST', url: `/default/sql/runs/${runId}/cancel`, headers: as('owner') });
    expect(cancel.json()).toEqual({ cancelled: true });
    const outcome = await sleeping;
    expect(Date.now() - asked).toBeLessThan(1_000);
    expect(outcome).toMatchObject({ status: 400, body: { code: '57014', message: Messages.queryCancelled, detail: 'canceling statement due to user request' } });
    // The pool's only connection runs the next text, and the run id is free again.
    expect((await run('select 1 as ok', 'owner', single, { runId })).last!.rows).toEqual([[1]]);
  });

  it('cancels a run of several statements: no later statement runs, nothing is kept', async () => {
    const runId = randomUUID();
    const sleeping = run('create table public.before_cancel (); select pg_sleep(30) as first_nap; create table public.after_cancel ()', 'owner', p.app, { runId });
    await runningStatement('first_nap');
    const started = Date.now();
    expect((await p.app.inject({ method: 'POST', url: `/default/sql/runs/${runId}/cancel`, headers: as('owner') })).json()).toEqual({ cancelled: true });
    expect((await sleeping).body.code).toBe('57014');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await tableExists('public.before_cancel')).toBe(false);
    expect(await tableExists('public.after_cancel')).toBe(false);
  });

  it('lets only the member who started a run cancel it', async () => {
    const runId = randomUUID();
    const sleeping = run('select pg_sleep(0.5) as only_mine', 'owner', p.app, { runId });
    await runningStatement('only_mine');
    const other = await p.app.inject({ method: 'POST', url: `/default/sql/runs/${runId}/cancel`, headers: userHeaders({ default: 'owner' }, 'user-2') });
    expect(other.json()).toEqual({ cancelled: false });
    // Another member's run with the same id is a run of their own.
    const theirs = await p.app.inject({ method: 'POST', url: '/default/sql/run', headers: userHeaders({ default: 'owner' }, 'user-2'), payload: { query: 'select 2 as n', runId } });
    expect(theirs.statusCode).toBe(200);
    // The member cannot start a second run under an id still in use.
    const twice = await run('select 1', 'owner', p.app, { runId });
    expect(twice.status).toBe(409);
    expect((await sleeping).status).toBe(200);
    const unknown = await p.app.inject({ method: 'POST', url: `/default/sql/runs/${randomUUID()}/cancel`, headers: as('owner') });
    expect(unknown.json()).toEqual({ cancelled: false });
  });

  it('marks where a statement failed, with the hint', async () => {
    const { status, body } = await run(`select 1;\nselect nme from public.parents`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: '42703', position: 18 });
    expect(body.hint).toMatch(/Perhaps you meant/);
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

  it('refuses a query with a NUL character with a 400 (run, explain and export), and the pool keeps working', async () => {
    for (const [url, payload] of [
      ['/default/sql/run', { query: 'select 1 -- \u0000' }],
      ['/default/sql/explain', { query: "select '\u0000'", analyze: false }],
      ['/default/sql/exports', { query: 'select 1\u0000', format: 'csv' }],
    ] as const) {
      const res = await p.app.inject({ method: 'POST', url, headers: as('owner'), payload });
      expect({ url, status: res.statusCode, message: (res.json() as ErrorReply).message }).toEqual({ url, status: 400, message: Messages.queryHasNul });
    }
    expect((await run('select 1 as one')).last!.rows).toEqual([[1]]);
  });

  it('caps rows at the editor limit and says so', async () => {
    const capped = await p.extraApp({ sqlEditor: { maxRows: 50 } });
    const { status, last } = await run(`select g from generate_series(1, 550) g; select 1 as after`, 'owner', capped);
    expect(status).toBe(200);
    const { body } = await run(`select g from generate_series(1, 550) g; select 1 as after`, 'owner', capped);
    expect(body.results[0]!.rows).toHaveLength(50);
    expect(body.results[0]!.rows[49]).toEqual([50]);
    expect(body.results[0]).toMatchObject({ truncated: true, rowCount: 550 });
    expect(last!.rows).toEqual([[1]]);
    const exact = await run(`select g from generate_series(1, 50) g`, 'owner', capped);
    expect(exact.last!.truncated).toBe(false);
    expect(exact.last!.rows).toHaveLength(50);
    // The real cap is large enough for a result the grid scrolls through.
    expect(SQL_EDITOR_MAX_ROWS).toBeGreaterThanOrEqual(100_000);
  });

  it('writes every kind of value without dropping any, timestamps as Postgres prints them', async () => {
    const stamp = '2024-02-03 04:05:06.123456+00';
    const { status, body } = await run(`
      set time zone 'UTC';
      select '${stamp}'::timestamptz as ts, '\\xdeadbeef'::bytea as bin, 9223372036854775807::bigint as big,
             '2024-02-03'::date as day, '2024-02-03 04:05:06'::timestamp as local_ts,
             '{"a": [1, {"b": null}], "q": "say \\"hi\\"\\n"}'::jsonb as doc, array[1, 2]::int[] as ints, 1.50::numeric as num,
             interval '1 hour' as span, null::text as nothing, 'NaN'::float8 as nan,
             array['${stamp}'::timestamptz] as stamps, array['\\x01'::bytea] as bins, '(1,2)'::point as pt,
             '-Infinity'::float4 as neg_inf, 1e100::float8 as huge, 2.5::float8 as half, -7::int2 as small, true as yes, false as no,
             'tab\there "quoted" é'::text as words, '{"n": 1}'::json as plain_json, array['{"a": 1}'::jsonb] as docs`);
    expect(status).toBe(200);
    const row = objects(body)[0]!;
    expect(row).toEqual({
      ts: stamp,
      bin: '\\xdeadbeef',
      big: '9223372036854775807',
      day: '2024-02-03',
      local_ts: '2024-02-03 04:05:06',
      doc: { a: [1, { b: null }], q: 'say "hi"\n' },
      ints: [1, 2],
      num: '1.50',
      span: '01:00:00',
      nothing: null,
      nan: 'NaN',
      stamps: [stamp],
      bins: ['\\x01'],
      pt: { x: 1, y: 2 },
      neg_inf: '-Infinity',
      huge: 1e100,
      half: 2.5,
      small: -7,
      yes: true,
      no: false,
      words: 'tab\there "quoted" é',
      plain_json: { n: 1 },
      docs: [{ a: 1 }],
    });
    // Every value is in the reply, nulls included.
    expect(body.results[1]!.rows[0]).toHaveLength(23);
    expect(body.results[1]!.columns.map((c) => c.type)).toEqual([
      'timestamptz', 'bytea', 'int8', 'date', 'timestamp', 'jsonb', '_int4', 'numeric', 'interval', 'text', 'float8',
      '_timestamptz', '_bytea', 'point', 'float4', 'float8', 'float8', 'int2', 'bool', 'bool', 'text', 'json', '_jsonb',
    ]);
  });

  it('names user-defined column types', async () => {
    await p.sql(`create type public.mood as enum ('happy', 'sad')`);
    const { last } = await run(`select 'happy'::public.mood as feeling`);
    expect(last!.columns).toEqual([{ name: 'feeling', type: 'mood' }]);
    expect(last!.rows).toEqual([['happy']]);
  });

  it('stops a statement at the timeout with a 400 and SQLSTATE 57014', async () => {
    const asked: string[] = [];
    const quick = await p.extraApp({
      sqlEditorSettings: async (ref) => {
        asked.push(ref);
        return { statementTimeoutMs: 1000 };
      },
    });
    const { status, body } = await run(`select pg_sleep(3)`, 'owner', quick);
    expect(status).toBe(400);
    expect(body.code).toBe('57014');
    expect(body.message).toBe(Messages.queryTimedOut);
    expect(body.detail).toBe('canceling statement due to statement timeout');
    expect(asked).toEqual(['default']);
    // Ending the transaction in the text does not escape the timeout.
    expect((await run(`commit; select pg_sleep(3)`, 'owner', quick)).body.code).toBe('57014');
  });

  it('leaves no session state behind on the pooled connection', async () => {
    const single = await p.extraApp({}, 1);
    const admin = new URL(p.url).username;
    const changed = await run(`create temp table leftover (id int); set role anon; set search_path = auth; select current_user as u`, 'owner', single);
    expect(objects(changed.body)).toEqual([{ u: 'anon' }]);
    const after = await run(`select current_user as u, current_setting('search_path') as path, to_regclass('pg_temp.leftover') is null as gone`, 'owner', single);
    expect(objects(after.body)).toEqual([{ u: admin, path: '"$user", public', gone: true }]);
    const timeout = await run(`show statement_timeout`, 'owner', single);
    expect(objects(timeout.body)).toEqual([{ statement_timeout: '1min' }]);
    // Session settings of the text do not disturb the service's own work after the run.
    const hostile = await run(`set statement_timeout = 1; set role anon; select 1 as x`, 'owner', single);
    expect(hostile.last!.columns).toEqual([{ name: 'x', type: 'int4' }]);
    const again = await run(`select current_setting('statement_timeout') as t, current_user as u`, 'owner', single);
    expect(objects(again.body)).toEqual([{ t: '1min', u: admin }]);
  });

  it('says an administrator ended the run when its session is terminated, from another connection or its own, and recovers', async () => {
    const terminated = { status: 400, body: { code: '57P01', message: Messages.queryTerminated, detail: 'terminating connection due to administrator command' } };
    const sleeping = run('select pg_sleep(30) as terminate_me');
    await runningStatement('terminate_me');
    await p.sql(`select pg_terminate_backend(pid) from pg_stat_activity where query like '%terminate_me%' and pid <> pg_backend_pid()`);
    expect(await sleeping).toMatchObject(terminated);
    expect(await run(`select pg_terminate_backend(pg_backend_pid())`)).toMatchObject(terminated);
    const next = await run(`select 1 as ok`);
    expect(next.last!.rows).toEqual([[1]]);
  });

  it("says a run was cancelled when another session cancels it (pg_cancel_backend)", async () => {
    const sleeping = run('select pg_sleep(30) as cancel_elsewhere');
    await runningStatement('cancel_elsewhere');
    await p.sql(`select pg_cancel_backend(pid) from pg_stat_activity where query like '%cancel_elsewhere%' and pid <> pg_backend_pid()`);
    expect(await sleeping).toMatchObject({ status: 400, body: { code: '57014', message: Messages.queryCancelled } });
  });

  it('answers 503 only when the database cannot be reached', async () => {
    const unreachable = buildApp({ secret: TEST_SECRET, resolver: async () => 'postgres://postgres@127.0.0.1:1/nowhere' });
    try {
      const res = await unreachable.inject({ method: 'POST', url: '/default/sql/run', headers: as('owner'), payload: { query: 'select 1' } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ message: ServiceMessages.databaseUnavailable });
    } finally {
      await unreachable.close();
    }
  });

  it('checks access', async () => {
    const outsider = await p.app.inject({ method: 'POST', url: '/default/sql/run', headers: userHeaders({ other: 'owner' }), payload: { query: 'select 1' } });
    expect(outsider.statusCode).toBe(404);
    const anonymous = await p.app.inject({ method: 'POST', url: '/default/sql/run', payload: { query: 'select 1' } });
    expect(anonymous.statusCode).toBe(401);
    const noBody = await p.app.inject({ method: 'POST', url: '/default/sql/run', headers: as('owner'), payload: {} });
    expect(noBody.statusCode).toBe(400);
    const badRole = await p.app.inject({ method: 'POST', url: '/default/sql/run', headers: as('owner'), payload: { query: 'select 1', runAs: { role: 'postgres_admin' } } });
    expect(badRole.statusCode).toBe(400);
  });
});
