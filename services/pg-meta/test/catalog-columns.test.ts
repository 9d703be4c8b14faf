import { randomBytes } from 'node:crypto';
import type { PgColumn, PgForeignTable, PgMaterializedView, PgRole, PgTable, PgView } from '@dash/contracts';
import { as, setupProject, type Project, foreignServer } from './helpers';

/*
 * The catalog's detail: columns (postgres-meta's fields), primary keys and relationships in both
 * directions, views, materialized views, foreign tables and database roles.
 */

let p: Project;
const ids: Record<string, number> = {};
const ROLE = `cfg_${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  p = await setupProject();
  await foreignServer(p, 'shape_fdw', 'shape_server');
  await p.sql(`
    create schema shape;
    create type shape.mood as enum ('happy', 'sad', 'meh');
    create domain shape.positive as int check (value > 0);
    create table shape.parent (a int, b text, primary key (a, b));
    create table shape.child (
      id bigint generated always as identity primary key,
      pa int,
      pb text,
      label varchar(20) unique not null default 'x',
      price numeric check (price > 0),
      moods shape.mood[],
      mood shape.mood,
      secret text,
      total numeric generated always as (price * 2) stored,
      amount shape.positive,
      foreign key (pa, pb) references shape.parent (a, b) on delete set null on update cascade
    );
    create table shape.self (id int primary key, parent_id int references shape.self (id) on delete restrict);
    create unique index child_secret_key on shape.child (secret);
    create unique index child_partial on shape.child (pa) where pa > 0;
    comment on column shape.child.label is 'The label';
    create view shape.child_view as select id, label from shape.child;
    comment on view shape.child_view is 'Children';
    create view shape.summary as select count(*) as n from shape.child;
    create materialized view shape.snapshot as select 1 as one;
    create materialized view shape.later as select 1 as one with no data;
    create foreign table shape.remote (id int, note text) server shape_server;
    create schema other;
    create table other.t (x int);
    create role ${ROLE} login connection limit 5 valid until '2030-01-02 03:04:05+00';
    alter role ${ROLE} set search_path = a, b;
    alter role ${ROLE} set statement_timeout = '5s';
  `);
  // A pgsodium security label as pgsodium writes it (the extension itself is not installed here).
  await p.superuserSql(`insert into pg_catalog.pg_seclabel values ('shape.child'::regclass, 'pg_class'::regclass, 8, 'pgsodium', 'ENCRYPT WITH KEY ID 7')`);
  const { rows } = await p.sql(
    `select c.relname, c.oid::int as oid, (select oid::int from pg_constraint where conname = 'child_pa_pb_fkey') as fk,
       (select oid::int from pg_constraint where conname = 'self_parent_id_fkey') as self_fk
     from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname in ('shape', 'other')`,
  );
  for (const row of rows) ids[row.relname] = row.oid;
  ids.fk = rows[0].fk;
  ids.self_fk = rows[0].self_fk;
});

afterAll(async () => {
  await p.sql(`drop owned by ${ROLE}; drop role ${ROLE}`);
  await p.close();
});

async function get<T>(url: string, role: Parameters<typeof as>[0] = 'owner'): Promise<{ status: number; body: T }> {
  const res = await p.app.inject({ method: 'GET', url, headers: as(role) });
  return { status: res.statusCode, body: res.json() as T };
}

describe('tables: primary keys, relationships and columns', () => {
  it('lists every key column in order and each foreign-key column pair, from both sides', async () => {
    const { body } = await get<PgTable[]>('/default/tables?included_schemas=shape');
    expect(body.map((t) => t.name)).toEqual(['child', 'parent', 'self']);
    const [child, parent, self] = body as [PgTable, PgTable, PgTable];
    expect(parent.primary_keys).toEqual([
      { schema: 'shape', table_name: 'parent', name: 'a', table_id: ids.parent },
      { schema: 'shape', table_name: 'parent', name: 'b', table_id: ids.parent },
    ]);
    const pairs = [
      { source_column_name: 'pa', target_column_name: 'a' },
      { source_column_name: 'pb', target_column_name: 'b' },
    ].map((pair) => ({
      id: ids.fk,
      constraint_name: 'child_pa_pb_fkey',
      source_schema: 'shape',
      source_table_name: 'child',
      target_table_schema: 'shape',
      target_table_name: 'parent',
      deletion_action: 'SET NULL',
      update_action: 'CASCADE',
      ...pair,
    }));
    expect(child.relationships).toEqual(pairs);
    expect(parent.relationships).toEqual(pairs);
    // A self-reference is listed once.
    expect(self.relationships).toEqual([
      {
        id: ids.self_fk,
        constraint_name: 'self_parent_id_fkey',
        source_schema: 'shape',
        source_table_name: 'self',
        source_column_name: 'parent_id',
        target_table_schema: 'shape',
        target_table_name: 'self',
        target_column_name: 'id',
        deletion_action: 'RESTRICT',
        update_action: 'NO ACTION',
      },
    ]);
  });

  it("describes each column in postgres-meta's fields", async () => {
    const { body } = await get<PgTable>(`/default/tables/${ids.child}`);
    const byName = Object.fromEntries(body.columns!.map((c) => [c.name, c]));
    expect(body.columns!.map((c) => c.name)).toEqual(['id', 'pa', 'pb', 'label', 'price', 'moods', 'mood', 'secret', 'total', 'amount']);
    expect(byName.id).toEqual({
      id: `${ids.child}.1`,
      table_id: ids.child,
      schema: 'shape',
      table: 'child',
      ordinal_position: 1,
      name: 'id',
      default_value: null,
      data_type: 'bigint',
      format: 'int8',
      is_identity: true,
      identity_generation: 'ALWAYS',
      is_generated: false,
      is_nullable: false,
      is_updatable: true,
      is_unique: false,
      enums: [],
      check: null,
      comment: null,
      is_encrypted: false,
    });
    expect(byName.label).toMatchObject({
      data_type: 'character varying',
      format: 'varchar',
      default_value: `'x'::character varying`,
      is_unique: true,
      is_nullable: false,
      comment: 'The label',
    });
    expect(byName.price).toMatchObject({ check: 'price > 0::numeric', is_unique: false, is_nullable: true });
    expect(byName.moods).toMatchObject({ data_type: 'ARRAY', format: '_mood', enums: ['happy', 'sad', 'meh'] });
    expect(byName.mood).toMatchObject({ data_type: 'USER-DEFINED', format: 'mood', enums: ['happy', 'sad', 'meh'] });
    // A standalone unique index counts; a partial one does not.
    expect(byName.secret).toMatchObject({ is_unique: true, is_encrypted: true });
    expect(byName.pa).toMatchObject({ is_unique: false, is_encrypted: false });
    expect(byName.total).toMatchObject({ is_generated: true, default_value: '(price * (2)::numeric)' });
    // A domain reports its base type.
    expect(byName.amount).toMatchObject({ data_type: 'integer', format: 'int4' });
  });

  it('answers 404 with a message for an id that is not a table', async () => {
    for (const id of [1, ids.child_view!, 4_294_967_295, 99_999_999_999]) {
      const { status, body } = await get<{ message: string }>(`/default/tables/${id}`);
      expect(status).toBe(404);
      expect(body.message).toBe(`Table with id ${id} not found`);
    }
    expect((await get('/default/tables/abc')).status).toBe(400);
  });
});

describe('GET /:ref/columns', () => {
  it('lists the columns of one table by table_id, in order, with their ids', async () => {
    const { status, body } = await get<PgColumn[]>(`/default/columns?table_id=${ids.parent}`);
    expect(status).toBe(200);
    expect(body.map((c) => [c.id, c.name, c.table])).toEqual([
      [`${ids.parent}.1`, 'a', 'parent'],
      [`${ids.parent}.2`, 'b', 'parent'],
    ]);
  });

  it('filters by included and excluded schemas, across tables, views and foreign tables', async () => {
    const shape = await get<PgColumn[]>('/default/columns?included_schemas=shape');
    const tables = [...new Set(shape.body.map((c) => c.table))];
    expect(tables).toEqual(['child', 'child_view', 'later', 'parent', 'remote', 'self', 'snapshot', 'summary']);
    expect(shape.body.find((c) => c.table === 'child_view' && c.name === 'label')).toMatchObject({ is_updatable: true });
    expect(shape.body.find((c) => c.table === 'summary')).toMatchObject({ is_updatable: false });
    const excluded = await get<PgColumn[]>('/default/columns?excluded_schemas=shape,public,auth,storage,extensions');
    expect(new Set(excluded.body.map((c) => c.schema))).toEqual(new Set(['other']));
    const system = await get<PgColumn[]>('/default/columns?included_schemas=pg_catalog&limit=5');
    expect(system.body).toHaveLength(5);
    expect(system.body.every((c) => c.schema === 'pg_catalog')).toBe(true);
  });

  it('pages over columns and answers an empty list for an unknown table', async () => {
    const page = await get<PgColumn[]>(`/default/columns?table_id=${ids.child}&limit=3&offset=2`);
    expect(page.body.map((c) => c.name)).toEqual(['pb', 'label', 'price']);
    expect((await get<PgColumn[]>('/default/columns?table_id=1')).body).toEqual([]);
    expect((await get<PgColumn[]>('/default/columns?table_id=99999999999')).body).toEqual([]);
  });
});

describe('views, materialized views and foreign tables', () => {
  it('lists views with updatability, comment and columns', async () => {
    const { body } = await get<PgView[]>('/default/views?included_schemas=shape');
    expect(body.map((v) => [v.name, v.is_updatable, v.comment])).toEqual([
      ['child_view', true, 'Children'],
      ['summary', false, null],
    ]);
    expect(body[0]!.id).toBe(ids.child_view);
    expect(body[0]!.columns!.map((c) => c.name)).toEqual(['id', 'label']);
    const bare = await get<PgView[]>('/default/views?included_schemas=shape&include_columns=false&limit=1&offset=1');
    expect(bare.body).toEqual([{ id: ids.summary, schema: 'shape', name: 'summary', comment: null, is_updatable: false }]);
  });

  it('lists materialized views with is_populated, and foreign tables', async () => {
    const mat = await get<PgMaterializedView[]>('/default/materialized-views?included_schemas=shape&include_columns=true');
    expect(mat.body.map((v) => [v.name, v.is_populated, v.columns!.map((c) => c.name)])).toEqual([
      ['later', false, ['one']],
      ['snapshot', true, ['one']],
    ]);
    const foreign = await get<PgForeignTable[]>('/default/foreign-tables?included_schemas=shape');
    expect(foreign.body).toHaveLength(1);
    expect(foreign.body[0]).toMatchObject({ id: ids.remote, schema: 'shape', name: 'remote', comment: null });
    expect(foreign.body[0]!.columns!.map((c) => [c.name, c.is_updatable])).toEqual([
      ['id', false],
      ['note', false],
    ]);
    expect((await get<PgForeignTable[]>('/default/foreign-tables?excluded_schemas=shape')).body).toEqual([]);
  });
});

describe('GET /:ref/roles', () => {
  it('lists roles without predefined pg_ roles, never with a password', async () => {
    const { status, body } = await get<PgRole[]>('/default/roles');
    expect(status).toBe(200);
    const names = body.map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['anon', 'authenticated', 'service_role', 'authenticator', 'postgres', ROLE]));
    expect(names.some((n) => n.startsWith('pg_'))).toBe(false);
    expect(body.every((r) => r.password === '********')).toBe(true);
    const { rows } = await p.sql(`select oid::int8 as oid, rolconnlimit from pg_roles where rolname = $1`, [ROLE]);
    expect(body.find((r) => r.name === ROLE)).toEqual({
      id: Number(rows[0].oid),
      name: ROLE,
      is_superuser: false,
      can_create_db: false,
      can_create_role: false,
      inherit_role: true,
      can_login: true,
      is_replication_role: false,
      can_bypass_rls: false,
      active_connections: 0,
      connection_limit: 5,
      password: '********',
      valid_until: '2030-01-02 03:04:05+00',
      config: { search_path: 'a, b', statement_timeout: '5s' },
    });
    expect(body.find((r) => r.name === 'service_role')).toMatchObject({ can_bypass_rls: true, can_login: false, valid_until: null, config: null });
    const postgres = body.find((r) => r.name === 'postgres')!;
    expect(postgres.is_superuser).toBe(true);
    expect(postgres.active_connections).toBeGreaterThan(0);
    const { rows: max } = await p.sql(`select current_setting('max_connections')::int as n`);
    expect(postgres.connection_limit).toBe(max[0].n);
  });

  it('includes predefined roles on request and pages', async () => {
    const all = await get<PgRole[]>('/default/roles?include_default_roles=true');
    expect(all.body.map((r) => r.name)).toEqual(expect.arrayContaining(['pg_read_all_data', 'pg_write_all_data', 'anon']));
    const page = await get<PgRole[]>('/default/roles?include_default_roles=true&limit=2&offset=1');
    expect(page.body.map((r) => r.name)).toEqual(all.body.slice(1, 3).map((r) => r.name));
  });

  it('lets a read-only member read every catalog route', async () => {
    for (const url of ['/default/roles', '/default/columns?included_schemas=shape', `/default/tables/${ids.child}`, '/default/views']) {
      expect((await get(url, 'read_only')).status).toBe(200);
    }
  });
});
