import { ErrorReply, pgMetaRoutes, rolesRoutes, sqlEditorRoutes, tableEditorRoutes, type RouteDef } from '@dash/contracts';
import { as, contractValidator, setupProject, type Project } from './helpers';

let p: Project;
const check = contractValidator();

beforeAll(async () => {
  p = await setupProject();
  await p.sql(`
    create table public.things (id int primary key, label text);
    comment on table public.things is 'Things';
    alter table public.things enable row level security;
    create policy readable on public.things for select using (true);
    create view public.things_view as select * from public.things;
  `);
});

afterAll(async () => {
  await p.close();
});

describe('replies match the contract (ajv with formats)', () => {
  const cases: Array<[string, { method: 'GET' | 'POST'; url: string; payload?: object }, RouteDef]> = [
    ['listSchemas', { method: 'GET', url: '/default/schemas?include_system_schemas=true' }, pgMetaRoutes.listSchemas],
    ['listTables', { method: 'GET', url: '/default/tables?include_system_schemas=true' }, tableEditorRoutes.listTables],
    ['listPolicies', { method: 'GET', url: '/default/policies' }, pgMetaRoutes.listPolicies],
    ['listEntities', { method: 'GET', url: '/default/entities?schema=public&limit=1' }, pgMetaRoutes.listEntities],
    ['listEntities grouped', { method: 'GET', url: '/default/entities?schema=public&sort=grouped-alphabetical' }, pgMetaRoutes.listEntities],
    [
      'sql run',
      {
        method: 'POST',
        url: '/default/sql/run',
        payload: { query: `select now() as ts, '\\x00'::bytea as b, 1::bigint as n, null as nothing, '{"k": 1}'::json as doc; do $$ begin raise notice 'hi'; end $$` },
      },
      sqlEditorRoutes.run,
    ],
    ['sql run ddl', { method: 'POST', url: '/default/sql/run', payload: { query: 'create table public.more (id int)' } }, sqlEditorRoutes.run],
    ['sql cancel', { method: 'POST', url: '/default/sql/runs/8a0d3c52-51b8-4a47-9a7a-3e3f0c1f1b11/cancel' }, sqlEditorRoutes.cancel],
    [
      'sql explain analyze',
      { method: 'POST', url: '/default/sql/explain', payload: { query: 'select * from public.things t join public.things u using (id)', analyze: true } },
      sqlEditorRoutes.explain,
    ],
    ['sql explain', { method: 'POST', url: '/default/sql/explain', payload: { query: 'select 1', analyze: false } }, sqlEditorRoutes.explain],
    ['sql prepare export', { method: 'POST', url: '/default/sql/exports', payload: { query: 'select * from public.things', format: 'json' } }, sqlEditorRoutes.prepareExport],
  ];

  it.each(cases)('%s', async (_name, request, def) => {
    const res = await p.app.inject({ ...request, headers: as('owner') });
    expect(res.statusCode).toBe(def.status ?? 200);
    const body = res.json();
    expect(check(def.response, body)).toBeNull();
    if (Array.isArray(body)) expect(body.length).toBeGreaterThan(0);
  });

  it('error replies match ErrorReply', async () => {
    const replies = await Promise.all([
      p.app.inject({ method: 'POST', url: '/default/sql/run', headers: as('owner'), payload: { query: 'selec' } }),
      p.app.inject({ method: 'POST', url: '/default/sql/run', headers: as('owner'), payload: { query: ' ' } }),
      p.app.inject({ method: 'POST', url: '/default/sql/run', headers: as('owner'), payload: { query: 'select lable from public.things' } }),
      p.app.inject({ method: 'GET', url: '/default/tables' }),
      p.app.inject({ method: 'GET', url: '/default/tables', headers: as('owner', 'elsewhere') }),
      p.app.inject({ method: 'GET', url: '/default/entities', headers: as('owner') }),
    ]);
    expect(replies.map((r) => r.statusCode)).toEqual([400, 400, 400, 401, 404, 400]);
    for (const res of replies) expect(check(ErrorReply, res.json())).toBeNull();
    expect(replies[2]!.json()).toMatchObject({ code: '42703', position: 8, hint: expect.any(String) });
  });
});

describe('row routes reply as the contract says', () => {
  let id = 0;
  beforeAll(async () => {
    await p.sql(`
      create table public.row_replies (id int8 primary key, body text, doc jsonb, at timestamptz, pic bytea, tags int[]);
      insert into public.row_replies values (1, repeat('x', 20000), '{"a": [1, null]}', now(), '\\x00ff', '{1,2}'), (2, null, null, null, null, null);
    `);
    const { rows } = await p.sql(`select 'public.row_replies'::regclass::oid::int8 as id`);
    id = Number(rows[0].id);
  });

  const r = tableEditorRoutes;
  const cases: Array<[string, () => { method: 'POST' | 'PATCH'; url: string; payload?: object }, (typeof r)[keyof typeof r]]> = [
    ['selectRows', () => ({ method: 'POST', url: `/default/tables/${id}/rows/select`, payload: { sorts: [{ column: 'body', ascending: true }] } }), r.selectRows],
    ['countRows', () => ({ method: 'POST', url: `/default/tables/${id}/rows/count`, payload: {} }), r.countRows],
    ['loadFullValue', () => ({ method: 'POST', url: `/default/tables/${id}/rows/value`, payload: { match: { id: '1' }, column: 'doc' } }), r.loadFullValue],
    ['insertRow', () => ({ method: 'POST', url: `/default/tables/${id}/rows`, payload: { values: { id: 3, doc: '[]', tags: [4] } } }), r.insertRow],
    ['updateRow', () => ({ method: 'PATCH', url: `/default/tables/${id}/rows`, payload: { match: { id: 3 }, values: { body: 'b' } } }), r.updateRow],
    ['deleteRows', () => ({ method: 'POST', url: `/default/tables/${id}/rows/delete`, payload: { matches: [{ id: 3 }] } }), r.deleteRows],
  ];

  it.each(cases)('%s', async (_name, request, def) => {
    const res = await p.app.inject({ ...request(), headers: as('owner') });
    expect(res.statusCode).toBe(def.status ?? 200);
    expect(check(def.response, res.json())).toBeNull();
  });

  it('exportRows answers text/csv, importRows and importNewTable CsvImported, truncateTable Ok', async () => {
    const exported = await p.app.inject({ method: 'POST', url: `/default/tables/${id}/rows/export`, headers: as('owner'), payload: {} });
    expect(exported.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(check(r.exportRows.response, exported.body)).toBeNull();
    const csv = { ...as('owner'), 'content-type': 'text/csv' };
    const imported = await p.app.inject({ method: 'POST', url: `/default/tables/${id}/rows/import?columns=${encodeURIComponent('["id"]')}`, headers: csv, payload: 'id\n10\n' });
    expect(check(r.importRows.response, imported.json())).toBeNull();
    const table = JSON.stringify({ schema: 'public', name: 'row_import', columns: [{ name: 'n', type: 'int4' }] });
    const created = await p.app.inject({ method: 'POST', url: `/default/tables/import?table=${encodeURIComponent(table)}`, headers: csv, payload: 'n\n1\n' });
    expect(created.statusCode).toBe(201);
    expect(check(r.importNewTable.response, created.json())).toBeNull();
    const truncated = await p.app.inject({ method: 'POST', url: `/default/tables/${id}/rows/truncate`, headers: as('owner') });
    expect(check(r.truncateTable.response, truncated.json())).toBeNull();
  });
});

describe('catalog and schema routes reply as the contract says', () => {
  const t = tableEditorRoutes;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    await p.sql(`
      create schema contract;
      create type contract.mood as enum ('a', 'b');
      create table contract.parent (id int8 generated always as identity primary key, moods contract.mood[] default '{a}');
      create table contract.child (id int primary key, parent_id int8 references contract.parent (id) on delete cascade, note text check (note <> ''));
      comment on column contract.child.note is 'Note';
      create view contract.v as select * from contract.child;
      create materialized view contract.mv as select 1 as one;
    `);
    // Foreign data wrappers are a superuser's to make; the project admin may then use the server.
    await p.superuserSql(`
      create foreign data wrapper contract_fdw;
      create server contract_server foreign data wrapper contract_fdw;
      grant usage on foreign server contract_server to ${new URL(p.url).username};
    `);
    await p.sql('create foreign table contract.ft (id int) server contract_server');
    const { rows } = await p.sql(`select relname, oid::int8 as id from pg_class where relnamespace = 'contract'::regnamespace`);
    for (const row of rows) ids[row.relname] = Number(row.id);
  });

  type Request = { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object };
  const cases: Array<[string, () => Request, RouteDef]> = [
    ['listTables with columns', () => ({ method: 'GET', url: '/default/tables?included_schemas=contract' }), t.listTables],
    ['listTables without columns', () => ({ method: 'GET', url: '/default/tables?include_columns=false&limit=2' }), t.listTables],
    ['getTable', () => ({ method: 'GET', url: `/default/tables/${ids.child}` }), t.getTable],
    ['tableDefinition', () => ({ method: 'GET', url: `/default/tables/${ids.child}/definition` }), t.tableDefinition],
    ['listColumns', () => ({ method: 'GET', url: '/default/columns?included_schemas=contract' }), t.listColumns],
    ['listViews', () => ({ method: 'GET', url: '/default/views?included_schemas=contract' }), t.listViews],
    ['listMaterializedViews', () => ({ method: 'GET', url: '/default/materialized-views?included_schemas=contract' }), t.listMaterializedViews],
    ['listForeignTables', () => ({ method: 'GET', url: '/default/foreign-tables?included_schemas=contract' }), t.listForeignTables],
    ['listRoles', () => ({ method: 'GET', url: '/default/roles?include_default_roles=true' }), rolesRoutes.listRoles],
    [
      'createTable',
      () => ({
        method: 'POST',
        url: '/default/tables',
        payload: { schema: 'contract', name: 'made', comment: 'Made', rls_enabled: true, columns: [{ name: 'id', type: 'int8', isIdentity: true, isPrimaryKey: true }] },
      }),
      t.createTable,
    ],
    ['updateTable', () => ({ method: 'PATCH', url: `/default/tables/${ids.parent}`, payload: { rls_enabled: true, rls_forced: true } }), t.updateTable],
    [
      'createColumn',
      () => ({ method: 'POST', url: '/default/columns', payload: { tableId: ids.child, name: 'extra', type: 'text[]', defaultValue: '{x}', isNullable: false } }),
      t.createColumn,
    ],
    ['updateColumn', () => ({ method: 'PATCH', url: `/default/columns/${ids.child}.3`, payload: { comment: null, check: 'note <> \'-\'' } }), t.updateColumn],
    ['deleteColumn', () => ({ method: 'DELETE', url: `/default/columns/${ids.child}.3?cascade=true` }), t.deleteColumn],
    ['deleteTable', () => ({ method: 'DELETE', url: `/default/tables/${ids.child}?cascade=true` }), t.deleteTable],
  ];

  it.each(cases)('%s', async (_name, request, def) => {
    const res = await p.app.inject({ ...request(), headers: as('owner') });
    expect(res.statusCode).toBe(def.status ?? 200);
    const body = res.json();
    expect(check(def.response, body)).toBeNull();
    if (Array.isArray(body)) expect(body.length).toBeGreaterThan(0);
  });

  it('error replies of the catalog and schema routes match ErrorReply', async () => {
    const replies = await Promise.all([
      p.app.inject({ method: 'GET', url: '/default/tables/1', headers: as('owner') }),
      p.app.inject({ method: 'PATCH', url: '/default/columns/1.1', headers: as('owner'), payload: { comment: 'x' } }),
      p.app.inject({ method: 'POST', url: '/default/columns', headers: as('owner'), payload: { tableId: ids.parent, name: 'bad', type: 'nope' } }),
      p.app.inject({ method: 'POST', url: '/default/tables', headers: as('read_only'), payload: { schema: 'contract', name: 'x', columns: [] } }),
    ]);
    expect(replies.map((r) => r.statusCode)).toEqual([404, 404, 400, 403]);
    for (const res of replies) expect(check(ErrorReply, res.json())).toBeNull();
  });
});
