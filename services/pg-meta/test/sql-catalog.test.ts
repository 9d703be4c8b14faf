import pg from 'pg';
import { ErrorReply, sqlEditorRoutes, type CompletionCatalog, type OrgRole, type RunningQuery } from '@dash/contracts';
import { createTestDatabase } from '@dash/service-kit/dist/testing';
import { as, contractValidator, foreignServer, setupProject, type Project } from './helpers';

/* The SQL editor's completion catalog, suggested names and running queries, on a real project database. */

let p: Project;
const check = contractValidator();
/** Clients this file opened; any still running at the end are ended by the server's superuser. */
const sessions: pg.Client[] = [];

beforeAll(async () => {
  p = await setupProject();
  await foreignServer(p, 'completion_fdw', 'completion_server');
  await p.sql(`
    create schema shop;
    create table shop.orders (
      id bigint generated always as identity primary key,
      gone int,
      status varchar(20) not null,
      total numeric(10, 2),
      created_at timestamptz not null default now()
    );
    alter table shop.orders drop column gone;
    create table shop.events (id int, at date not null) partition by range (at);
    create view shop.open_orders as select id, status from shop.orders where status = 'open';
    create materialized view shop.order_counts as select status, count(*) as n from shop.orders group by status;
    create foreign table shop.remote_orders (id int, note text) server completion_server;
    create function shop.order_total(o shop.orders) returns numeric language sql stable as $$ select o.total $$;
    create function shop.greet(name text, times int default 1) returns setof text language sql as $$ select 'hi ' || name $$;
    create procedure shop.archive(days int) language sql as $$ select 1 $$;
    create aggregate shop.concat_all(text) (sfunc = textcat, stype = text);
    create table public.plain (a int);
  `);
  await p.sql('create temp table scratch_of_this_session (id int)');
});

afterAll(async () => {
  for (const client of sessions) await client.end().catch(() => {});
  await p?.close();
});

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, options: { payload?: object; role?: OrgRole } = {}) {
  const res = await p.app.inject({ method, url: `/default${url}`, headers: as(options.role ?? 'owner'), ...(options.payload ? { payload: options.payload } : {}) });
  return { status: res.statusCode, body: res.json() };
}

function failed(reply: { status: number; body: unknown }, status: number, message?: string | RegExp) {
  expect(reply.status).toBe(status);
  expect(check(ErrorReply, reply.body)).toBeNull();
  if (typeof message === 'string') expect((reply.body as ErrorReply).message).toBe(message);
  else if (message) expect((reply.body as ErrorReply).message).toMatch(message);
}

describe('completions', () => {
  let catalog: CompletionCatalog;

  beforeAll(async () => {
    const reply = await call('GET', '/sql/completions');
    expect(reply.status).toBe(200);
    expect(check(sqlEditorRoutes.completions.response, reply.body)).toBeNull();
    catalog = reply.body as CompletionCatalog;
  });

  const relation = (schema: string, name: string) => catalog.relations.find((r) => r.schema === schema && r.name === name);

  it('lists the user schemas and no system or temporary schema', () => {
    expect(catalog.schemas).toEqual(expect.arrayContaining(['auth', 'public', 'shop', 'storage']));
    for (const name of catalog.schemas) {
      expect(name).not.toMatch(/^pg_/);
      expect(name).not.toBe('information_schema');
    }
    expect(catalog.schemas).toEqual([...catalog.schemas].sort());
    expect(catalog.relations.some((r) => r.name === 'scratch_of_this_session')).toBe(false);
    expect(catalog.relations.some((r) => r.schema === 'pg_catalog' || r.schema === 'information_schema')).toBe(false);
  });

  it('lists tables with their columns in order, typed as format_type spells them, without dropped columns', () => {
    expect(relation('shop', 'orders')).toEqual({
      schema: 'shop',
      name: 'orders',
      kind: 'table',
      columns: [
        { name: 'id', type: 'bigint' },
        { name: 'status', type: 'character varying(20)' },
        { name: 'total', type: 'numeric(10,2)' },
        { name: 'created_at', type: 'timestamp with time zone' },
      ],
    });
    // The bootstrap's original columns first, then those it adds to older projects' tables, in that order.
    const userColumns = relation('auth', 'users')?.columns.map((c) => c.name) ?? [];
    expect(userColumns.slice(0, 4)).toEqual(['id', 'email', 'is_anonymous', 'created_at']);
    expect(userColumns.indexOf('instance_id')).toBe(4);
    // ...and the ones the auth service added after them.
    expect(userColumns.indexOf('deleted_at')).toBeLessThan(userColumns.indexOf('email_change_token_new'));
    expect(userColumns.at(-1)).toBe('phone_change_sent_at');
  });

  it('lists views and materialized views as views, partitioned and foreign tables as tables', () => {
    expect(relation('shop', 'open_orders')).toMatchObject({ kind: 'view', columns: [{ name: 'id', type: 'bigint' }, { name: 'status', type: 'character varying(20)' }] });
    expect(relation('shop', 'order_counts')).toMatchObject({ kind: 'view', columns: [{ name: 'status' }, { name: 'n', type: 'bigint' }] });
    expect(relation('shop', 'events')).toMatchObject({ kind: 'table' });
    expect(relation('shop', 'remote_orders')).toMatchObject({ kind: 'table', columns: [{ name: 'id', type: 'integer' }, { name: 'note', type: 'text' }] });
    // Indexes, sequences and composite types are not relations one selects from by name here.
    expect(relation('shop', 'orders_pkey')).toBeUndefined();
    expect(relation('shop', 'orders_id_seq')).toBeUndefined();
  });

  it('lists functions and procedures with identity arguments and result, without aggregates', () => {
    const shop = catalog.functions.filter((f) => f.schema === 'shop');
    expect(shop).toEqual([
      // Postgres spells a procedure's identity arguments with their mode.
      { schema: 'shop', name: 'archive', args: 'IN days integer', returns: 'void' },
      { schema: 'shop', name: 'greet', args: 'name text, times integer', returns: 'SETOF text' },
      { schema: 'shop', name: 'order_total', args: 'o shop.orders', returns: 'numeric' },
    ]);
    expect(catalog.functions).toEqual(expect.arrayContaining([{ schema: 'auth', name: 'uid', args: '', returns: 'uuid' }]));
  });

  it('leaves out functions an extension owns', async () => {
    const { rows } = await p.sql(`select name from pg_available_extensions where name in ('pg_trgm', 'citext', 'hstore') order by name`);
    const extension = rows[0]?.name as string | undefined;
    if (!extension) throw new Error('The test server has none of pg_trgm, citext, hstore');
    await p.superuserSql(`create schema ext; create extension ${extension} schema ext`);
    const reply = await call('GET', '/sql/completions');
    const after = reply.body as CompletionCatalog;
    expect(after.schemas).toContain('ext');
    const { rows: owned } = await p.sql(
      `select count(*)::int as n from pg_proc p join pg_depend d on d.objid = p.oid and d.classid = 'pg_proc'::regclass and d.deptype = 'e'
       where p.pronamespace = 'ext'::regnamespace`,
    );
    expect(owned[0].n).toBeGreaterThan(0);
    expect(after.functions.filter((f) => f.schema === 'ext')).toEqual([]);
  });

  it('is open to every member who can read the catalog', async () => {
    for (const role of ['read_only', 'developer'] as const) expect((await call('GET', '/sql/completions', { role })).status).toBe(200);
  });

  it('shows a table created a moment ago', async () => {
    await p.sql('create table public.just_made (first_col int, second_col text)');
    const after = (await call('GET', '/sql/completions')).body as CompletionCatalog;
    expect(after.relations.find((r) => r.name === 'just_made')?.columns.map((c) => c.name)).toEqual(['first_col', 'second_col']);
  });
});

describe('suggested titles', () => {
  it('names SQL from the parser', async () => {
    const reply = await call('POST', '/sql/title', { payload: { sql: 'select count(*) from orders group by status' }, role: 'read_only' });
    expect(reply.status).toBe(200);
    expect(check(sqlEditorRoutes.suggestTitle.response, reply.body)).toBeNull();
    expect(reply.body).toEqual({ title: 'Count orders by status', description: 'Counts rows of orders, grouped by status.' });
  });

  it('refuses text that does not parse with the parser\'s message and position', async () => {
    const reply = await call('POST', '/sql/title', { payload: { sql: 'select 1 frm users' } });
    failed(reply, 400, 'syntax error at or near "users"');
    expect(reply.body).toMatchObject({ code: '42601', position: 14 });
  });

  it('names empty text without failing', async () => {
    expect((await call('POST', '/sql/title', { payload: { sql: '' } })).body).toEqual({ title: 'Untitled query', description: 'This query is empty' });
  });
});

describe('running queries', () => {
  /** A session on `url` running `select pg_sleep(30)`: its pid and the promise of its query. */
  async function sleeper(url: string) {
    const client = new pg.Client({ connectionString: url, application_name: 'sleeper' });
    client.on('error', () => {});
    await client.connect();
    sessions.push(client);
    const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const outcome = client.query('select pg_sleep(30)').then(
      () => ({ error: null as pg.DatabaseError | null }),
      (error: pg.DatabaseError) => ({ error }),
    );
    return { client, pid, outcome };
  }

  const list = async (role: OrgRole = 'owner') => {
    const reply = await call('GET', '/sql/running-queries', { role });
    expect(reply.status).toBe(200);
    expect(check(sqlEditorRoutes.listRunningQueries.response, reply.body)).toBeNull();
    return (reply.body as { queries: RunningQuery[] }).queries;
  };

  /** Lists until `pid` shows as active (a backend is active once its query has started). */
  async function waitListed(pid: number): Promise<RunningQuery> {
    for (let i = 0; i < 100; i++) {
      const found = (await list()).find((q) => q.pid === pid);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`pid ${pid} never showed as running`);
  }

  it('lists a query running on the project database, aborts it, and no longer lists it', async () => {
    const started = Date.now();
    const s = await sleeper(p.url);
    const running = await waitListed(s.pid);
    expect(running.query).toBe('select pg_sleep(30)');
    expect(Math.abs(new Date(running.query_start).getTime() - started)).toBeLessThan(10_000);

    const abort = await call('DELETE', `/sql/running-queries/${s.pid}`);
    expect(abort.status).toBe(200);
    expect(abort.body).toEqual({ ok: true });
    const { error } = await s.outcome;
    expect(error?.code).toBe('57P01');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await list()).some((q) => q.pid === s.pid)).toBe(false);

    // Aborting it again: there is no such query any more.
    failed(await call('DELETE', `/sql/running-queries/${s.pid}`), 404, `No running query with pid ${s.pid}`);
  });

  it('lists oldest first and never the backend asking', async () => {
    const a = await sleeper(p.url);
    await waitListed(a.pid);
    const b = await sleeper(p.connections.read_only);
    await waitListed(b.pid);
    const queries = await list();
    const pids = queries.map((q) => q.pid);
    expect(pids.indexOf(a.pid)).toBeLessThan(pids.indexOf(b.pid));
    const starts = queries.map((q) => new Date(q.query_start).getTime());
    expect(starts).toEqual([...starts].sort((x, y) => x - y));
    expect(queries.some((q) => /pg_stat_activity/.test(q.query))).toBe(false);
    // The admin role may end the project's other roles' backends (it is a member of them).
    for (const s of [a, b]) {
      expect((await call('DELETE', `/sql/running-queries/${s.pid}`)).status).toBe(200);
      expect((await s.outcome).error?.code).toBe('57P01');
    }
  });

  it('does not show nor abort a backend of another database', async () => {
    const other = await createTestDatabase('pgmeta_other');
    try {
      const s = await sleeper(other.url);
      // Wait until the other session is running, seen from its own database.
      const probe = new pg.Client({ connectionString: other.url });
      await probe.connect();
      for (let i = 0; i < 100; i++) {
        const { rows } = await probe.query(`select 1 from pg_stat_activity where pid = $1 and state = 'active'`, [s.pid]);
        if (rows.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await list()).some((q) => q.pid === s.pid)).toBe(false);
      failed(await call('DELETE', `/sql/running-queries/${s.pid}`), 404, `No running query with pid ${s.pid}`);
      // Still running: it was not touched.
      const { rows } = await probe.query(`select state from pg_stat_activity where pid = $1`, [s.pid]);
      expect(rows[0]?.state).toBe('active');
      await probe.query('select pg_terminate_backend($1)', [s.pid]);
      await s.outcome;
      await probe.end();
    } finally {
      await other.drop();
    }
  });

  it('passes on Postgres\'s refusal to end a superuser\'s backend as a 403', async () => {
    const s = await sleeper(p.serverUrl);
    try {
      for (let i = 0; i < 100; i++) {
        const { rows } = await p.superuserSql(`select 1 from pg_stat_activity where pid = $1 and state = 'active'`, [s.pid]);
        if (rows.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Its query and start are hidden from the admin role, so the list leaves it out.
      expect((await list()).some((q) => q.pid === s.pid)).toBe(false);
      failed(await call('DELETE', `/sql/running-queries/${s.pid}`), 403, /permission denied to terminate process/);
    } finally {
      await p.superuserSql('select pg_terminate_backend($1)', [s.pid]);
      await s.outcome;
    }
  });

  it('answers 404 for a pid no backend has, and 400 for one that is not a pid', async () => {
    failed(await call('DELETE', '/sql/running-queries/2147483600'), 404, 'No running query with pid 2147483600');
    failed(await call('DELETE', '/sql/running-queries/0'), 400);
    failed(await call('DELETE', '/sql/running-queries/abc'), 400);
  });

  it('is for members who may change the database: developers yes, read-only members no', async () => {
    expect((await call('GET', '/sql/running-queries', { role: 'developer' })).status).toBe(200);
    expect((await call('GET', '/sql/running-queries', { role: 'administrator' })).status).toBe(200);
    failed(await call('GET', '/sql/running-queries', { role: 'read_only' }), 403);

    const s = await sleeper(p.url);
    await waitListed(s.pid);
    failed(await call('DELETE', `/sql/running-queries/${s.pid}`, { role: 'read_only' }), 403);
    expect((await list()).some((q) => q.pid === s.pid)).toBe(true);
    expect((await call('DELETE', `/sql/running-queries/${s.pid}`, { role: 'developer' })).status).toBe(200);
    expect((await s.outcome).error?.code).toBe('57P01');
  });
});
