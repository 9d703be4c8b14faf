import pg from 'pg';
import { ServiceMessages, type Entity, type PgPolicy, type PgSchema, type PgTable } from '@dash/contracts';
import { TEST_SECRET, userHeaders } from '@dash/service-kit/dist/testing';
import { buildApp } from '../src/app';
import { as, setupProject, type Project, foreignServer } from './helpers';

const HOSTILE = [`it's "quoted"`, 'semi; drop table x; --', 'ünïcödé ☃ 表', ' lead and trail ', 'a\\b'];

let p: Project;

beforeAll(async () => {
  p = await setupProject();
  await foreignServer(p, 'dummy_fdw', 'dummy_server');
  await p.sql(`
    create schema app;
    create table app.items (id int primary key, name text);
    comment on table app.items is 'The items';
    alter table app.items enable row level security;
    alter table app.items force row level security;
    alter table app.items replica identity full;
    create policy "owner's read" on app.items as restrictive for select to anon, authenticated using (id > 0);
    create policy ins on app.items for insert with check (name <> '');
    create table app.plain (id int);

    create schema other;
    create table other.t1 (id int);

    create table public.measurements (id int, at date not null) partition by range (at);
    create table public.measurements_2024 partition of public.measurements for values from ('2024-01-01') to ('2025-01-01');
    create view public.a_view as select 1 as one;
    create materialized view public.a_matview as select 1 as one;
    create foreign table public.a_foreign (id int) server dummy_server;
    create table public.b_table (id int);
    comment on view public.a_view is 'A view';

    create schema search;
    create table search."100%_off" (id int);
    create table search."100xxoff" (id int);
    create table search."under_score" (id int);
    create table search."underXscore" (id int);
    create table search."back\\slash" (id int);
    create table search."backXslash" (id int);
    create table search."MixedCase" (id int);

    create schema paging;
    create table paging.p1 (id int); create table paging.p2 (id int); create table paging.p3 (id int);
    create table paging.p4 (id int); create table paging.p5 (id int);

    create schema hostile;
  `);
  for (const name of HOSTILE) {
    await p.sql(`create table hostile."${name.replace(/"/g, '""')}" (id int)`);
  }
  // Rows written by a short-lived session: a backend flushes its statistics when it exits.
  const writer = new pg.Client({ connectionString: p.url });
  await writer.connect();
  await writer.query(`insert into app.items select g, 'n' || g from generate_series(1, 25) g`);
  await writer.end();
  // A temporary table creates this session's pg_temp_N and pg_toast_temp_N schemas.
  await p.sql('create temp table scratch (id int)');
});

afterAll(async () => {
  await p.close();
});

async function get<T>(url: string, headers: Record<string, string> = as('owner')): Promise<{ status: number; body: T }> {
  const res = await p.app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, body: res.json() as T };
}

describe('GET /:ref/schemas', () => {
  it('lists user schemas with integer ids and owners, hiding system and temp schemas', async () => {
    const { status, body } = await get<PgSchema[]>('/default/schemas');
    expect(status).toBe(200);
    const names = body.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['app', 'public', 'auth', 'storage', 'hostile']));
    expect(names).not.toContain('pg_catalog');
    expect(names).not.toContain('information_schema');
    expect(names).not.toContain('pg_toast');
    expect(names.some((n) => /^pg_(toast_)?temp_/.test(n))).toBe(false);
    const app = body.find((s) => s.name === 'app')!;
    expect(app.owner).toBe(new URL(p.url).username);
    const { rows } = await p.sql(`select oid::int8 as oid from pg_namespace where nspname = 'app'`);
    expect(app.id).toBe(Number(rows[0].oid));
    expect(names).toEqual([...names].sort());
  });

  it('includes system schemas on request but never temp schemas', async () => {
    const { body } = await get<PgSchema[]>('/default/schemas?include_system_schemas=true');
    const names = body.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['pg_catalog', 'information_schema', 'app']));
    expect(names.some((n) => /^pg_(toast_)?temp_/.test(n))).toBe(false);
    const { rows } = await p.sql(`select count(*)::int as n from pg_namespace where nspname ~ '^pg_(toast_)?temp_'`);
    expect(rows[0].n).toBeGreaterThan(0);
  });
});

describe('GET /:ref/tables', () => {
  it('returns postgres-meta fields for a table', async () => {
    const { status, body } = await get<PgTable[]>('/default/tables?included_schemas=app');
    expect(status).toBe(200);
    expect(body.map((t) => t.name)).toEqual(['items', 'plain']);
    const items = body[0]!;
    const { rows } = await p.sql(`select 'app.items'::regclass::oid::int8 as oid, pg_total_relation_size('app.items') as bytes`);
    expect(items).toMatchObject({
      id: Number(rows[0].oid),
      schema: 'app',
      name: 'items',
      rls_enabled: true,
      rls_forced: true,
      replica_identity: 'FULL',
      bytes: Number(rows[0].bytes),
      comment: 'The items',
    });
    expect(items.size).toMatch(/\d+ (bytes|kB|MB)/);
    expect(items.dead_rows_estimate).toBeGreaterThanOrEqual(0);
    expect(items.primary_keys).toEqual([{ schema: 'app', table_name: 'items', name: 'id', table_id: items.id }]);
    expect(items.relationships).toEqual([]);
    expect(items.columns!.map((c) => [c.id, c.name, c.format, c.is_nullable])).toEqual([
      [`${items.id}.1`, 'id', 'int4', false],
      [`${items.id}.2`, 'name', 'text', true],
    ]);
    expect(body[1]).toMatchObject({ rls_enabled: false, rls_forced: false, replica_identity: 'DEFAULT', comment: null, primary_keys: [] });
  });

  it('leaves the columns out when include_columns is false', async () => {
    const { body } = await get<PgTable[]>('/default/tables?included_schemas=app&include_columns=false');
    expect(body.map((t) => t.name)).toEqual(['items', 'plain']);
    expect(body.every((t) => !('columns' in t))).toBe(true);
    expect(body[0]!.primary_keys).toHaveLength(1);
  });

  it('reports the live rows estimate from the statistics', async () => {
    // The writer's statistics reach shared memory as its backend exits, just after the client ends.
    let estimate = 0;
    for (let i = 0; i < 100 && estimate !== 25; i++) {
      const { body } = await get<PgTable[]>('/default/tables?included_schemas=app');
      estimate = body.find((t) => t.name === 'items')!.live_rows_estimate;
      if (estimate !== 25) await new Promise((r) => setTimeout(r, 100));
    }
    expect(estimate).toBe(25);
  });

  it('hides system schemas by default, lists ordinary and partitioned tables, ordered by schema and name', async () => {
    const { body } = await get<PgTable[]>('/default/tables');
    const keys = body.map((t) => `${t.schema}.${t.name}`);
    expect(keys).toEqual(expect.arrayContaining(['app.items', 'public.measurements', 'public.measurements_2024', 'storage.buckets', 'auth.users']));
    expect(keys).not.toContain('public.a_view');
    expect(keys).not.toContain('public.a_foreign');
    expect(body.some((t) => t.schema === 'pg_catalog' || t.schema === 'information_schema')).toBe(false);
    const sorted = [...body].sort((a, b) => (a.schema === b.schema ? cmp(a.name, b.name) : cmp(a.schema, b.schema)));
    expect(body.map((t) => t.id)).toEqual(sorted.map((t) => t.id));
    expect(body.find((t) => t.schema === 'storage' && t.name === 'buckets')!.rls_enabled).toBe(true);
  });

  it('filters by included and excluded schema lists and includes system schemas on request', async () => {
    const both = await get<PgTable[]>('/default/tables?included_schemas=app,%20other');
    expect(new Set(both.body.map((t) => t.schema))).toEqual(new Set(['app', 'other']));
    const excluded = await get<PgTable[]>('/default/tables?excluded_schemas=app,public,hostile,search,paging');
    expect(new Set(excluded.body.map((t) => t.schema))).toEqual(new Set(['auth', 'storage', 'other']));
    const system = await get<PgTable[]>('/default/tables?include_system_schemas=true');
    expect(system.body.some((t) => t.schema === 'pg_catalog' && t.name === 'pg_class')).toBe(true);
  });

  it('pages with limit and offset', async () => {
    const all = await get<PgTable[]>('/default/tables?included_schemas=paging');
    expect(all.body.map((t) => t.name)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    const page = await get<PgTable[]>('/default/tables?included_schemas=paging&limit=2&offset=2');
    expect(page.body.map((t) => t.name)).toEqual(['p3', 'p4']);
  });

  it('lists tables with hostile names exactly as named', async () => {
    const { body } = await get<PgTable[]>('/default/tables?included_schemas=hostile');
    expect(body.map((t) => t.name).sort()).toEqual([...HOSTILE].sort());
  });

  it('rejects an invalid limit with a 400', async () => {
    const { status, body } = await get<{ message: string }>('/default/tables?limit=0');
    expect(status).toBe(400);
    expect(body.message).toMatch(/limit/);
  });
});

describe('GET /:ref/policies', () => {
  it('returns postgres-meta policy fields', async () => {
    const { status, body } = await get<PgPolicy[]>('/default/policies?included_schemas=app');
    expect(status).toBe(200);
    expect(body.map((x) => x.name)).toEqual(['ins', "owner's read"]);
    const { rows } = await p.sql(`select oid::int8 as oid, polname from pg_policy order by polname`);
    const oid = (name: string) => Number(rows.find((r) => r.polname === name).oid);
    const { rows: t } = await p.sql(`select 'app.items'::regclass::oid::int8 as oid`);
    expect(body[1]).toEqual({
      id: oid("owner's read"),
      schema: 'app',
      table: 'items',
      table_id: Number(t[0].oid),
      name: "owner's read",
      action: 'RESTRICTIVE',
      roles: ['anon', 'authenticated'],
      command: 'SELECT',
      definition: '(id > 0)',
      check: null,
    });
    expect(body[0]).toMatchObject({
      id: oid('ins'),
      action: 'PERMISSIVE',
      roles: ['public'],
      command: 'INSERT',
      definition: null,
      check: "(name <> ''::text)",
    });
  });

  it('applies schema filters', async () => {
    const excluded = await get<PgPolicy[]>('/default/policies?excluded_schemas=app');
    expect(excluded.body.some((x) => x.schema === 'app')).toBe(false);
    const all = await get<PgPolicy[]>('/default/policies');
    expect(all.body.filter((x) => x.schema === 'app')).toHaveLength(2);
  });
});

describe('GET /:ref/entities', () => {
  const entities = (query: string) => get<{ data: Entity[]; hasMore: boolean }>(`/default/entities?${query}`);

  it('lists every kind of entity of a schema, partitions left out', async () => {
    const { status, body } = await entities('schema=public');
    expect(status).toBe(200);
    expect(body.hasMore).toBe(false);
    expect(body.data.map((e) => [e.name, e.type])).toEqual([
      ['a_foreign', 'foreign_table'],
      ['a_matview', 'materialized_view'],
      ['a_view', 'view'],
      ['b_table', 'table'],
      ['measurements', 'partitioned_table'],
    ]);
    expect(body.data.find((e) => e.name === 'a_view')).toMatchObject({ schema: 'public', comment: 'A view' });
    expect(body.data.every((e) => Number.isInteger(e.id))).toBe(true);
  });

  it('groups by type, then name', async () => {
    const { body } = await entities('schema=public&sort=grouped-alphabetical');
    expect(body.data.map((e) => e.type)).toEqual(['table', 'view', 'foreign_table', 'materialized_view', 'partitioned_table']);
  });

  it('searches case-insensitively for a trimmed substring, matching %, _ and \\ literally', async () => {
    const names = async (search: string) =>
      (await entities(`schema=search&search=${encodeURIComponent(search)}`)).body.data.map((e) => e.name);
    expect(await names('%')).toEqual(['100%_off']);
    expect(await names('%_')).toEqual(['100%_off']);
    expect(await names('r_s')).toEqual(['under_score']);
    expect(await names('k\\s')).toEqual(['back\\slash']);
    expect(await names('  mixedcase  ')).toEqual(['MixedCase']);
    expect(await names('   ')).toHaveLength(7);
    expect(await names('nothing-like-this')).toEqual([]);
  });

  it('pages with hasMore', async () => {
    const first = await entities('schema=paging&limit=2');
    expect(first.body).toEqual({ data: [expect.objectContaining({ name: 'p1' }), expect.objectContaining({ name: 'p2' })], hasMore: true });
    const second = await entities('schema=paging&limit=2&offset=2');
    expect(second.body.data.map((e) => e.name)).toEqual(['p3', 'p4']);
    expect(second.body.hasMore).toBe(true);
    const last = await entities('schema=paging&limit=2&offset=4');
    expect(last.body.data.map((e) => e.name)).toEqual(['p5']);
    expect(last.body.hasMore).toBe(false);
    const exact = await entities('schema=paging&limit=5');
    expect(exact.body.hasMore).toBe(false);
  });

  it('lists hostile names and takes a hostile schema name as plain data', async () => {
    const { body } = await entities('schema=hostile');
    expect(body.data.map((e) => e.name).sort()).toEqual([...HOSTILE].sort());
    const injected = await entities(`schema=${encodeURIComponent("public' or '1'='1")}`);
    expect(injected.status).toBe(200);
    expect(injected.body.data).toEqual([]);
  });

  it('requires the schema', async () => {
    const { status } = await entities('');
    expect(status).toBe(400);
  });
});

describe('access', () => {
  it('lets a read-only member list the catalog', async () => {
    for (const url of [
      '/default/schemas',
      '/default/tables',
      '/default/policies',
      '/default/entities?schema=public',
      '/default/columns',
      '/default/views',
      '/default/materialized-views',
      '/default/foreign-tables',
      '/default/roles',
    ]) {
      const res = await p.app.inject({ method: 'GET', url, headers: as('read_only') });
      expect(res.statusCode).toBe(200);
    }
  });

  it('answers 404 to a non-member and 401 without identity', async () => {
    for (const url of ['/default/tables', '/default/columns', '/default/views', '/default/roles', '/default/tables/1', '/default/tables/1/definition']) {
      const outsider = await p.app.inject({ method: 'GET', url, headers: userHeaders({ other: 'owner' }) });
      expect(outsider.statusCode).toBe(404);
      expect(outsider.json().message).toBe('Project not found');
      const anonymous = await p.app.inject({ method: 'GET', url });
      expect(anonymous.statusCode).toBe(401);
    }
  });

  it('answers 503 when the project database cannot be reached', async () => {
    const unreachable = buildApp({ secret: TEST_SECRET, resolver: async () => 'postgres://postgres@127.0.0.1:1/nowhere' });
    try {
      const res = await unreachable.inject({ method: 'GET', url: '/default/schemas', headers: as('owner') });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ statusCode: 503, message: ServiceMessages.databaseUnavailable });
      expect(res.headers['retry-after']).toBe('2');
    } finally {
      await unreachable.close();
    }
  });

  it('answers 404 for a project the resolver does not know', async () => {
    const res = await p.app.inject({ method: 'GET', url: '/ghost/schemas', headers: as('owner', 'ghost') });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, message: 'Project not found' });
  });
});

function cmp(a: string, b: string): number {
  // Names compare byte-wise (the `name` type's C collation).
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return Buffer.compare(x, y);
}
