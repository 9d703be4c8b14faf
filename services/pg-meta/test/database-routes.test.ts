import { databaseRoutes, ErrorReply, type OrgRole, type PgExtension, type PgFunction, type PgIndex, type PgPublication, type PgTrigger, type PgType, type RouteDef } from '@dash/contracts';
import { as, contractValidator, setupProject, type Project } from './helpers';

/*
 * The database area's routes on real Postgres, per member role, with hostile names: the owner and a
 * developer write, a read-only member reads and is refused every write (403) before anything runs.
 */

const HOSTILE = `x"; drop table x; --`;
const UNICODE = `ünï'名 🐘`;

let p: Project;
const check = contractValidator();
let tableId: number;

beforeAll(async () => {
  p = await setupProject();
  await p.sql(`
    create schema "${HOSTILE.replace(/"/g, '""')}";
    create table public.docs (id int8 generated always as identity primary key, title text, body text, tags text[]);
    create table public.audit_log (id serial primary key, note text);
  `);
  tableId = Number((await p.sql(`select 'public.docs'::regclass::oid::int8 as id`)).rows[0].id);
});

afterAll(async () => {
  await p.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
async function call(method: Method, url: string, payload?: object, role: OrgRole = 'owner') {
  const res = await p.app.inject({ method, url: `/default${url}`, headers: as(role), ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() };
}

function ok<T>(reply: { status: number; body: unknown }, def: RouteDef): T {
  if (reply.status !== (def.status ?? 200)) throw new Error(`${reply.status}: ${JSON.stringify(reply.body)}`);
  expect(check(def.response, reply.body)).toBeNull();
  return reply.body as T;
}

function failed(reply: { status: number; body: unknown }, status: number, message?: string | RegExp) {
  expect(reply.status).toBe(status);
  expect(check(ErrorReply, reply.body)).toBeNull();
  if (typeof message === 'string') expect((reply.body as ErrorReply).message).toBe(message);
  else if (message) expect((reply.body as ErrorReply).message).toMatch(message);
}

const exists = async (sql: string, values: unknown[] = []) => (await p.sql(`select exists (${sql}) as found`, values)).rows[0].found as boolean;

describe('functions', () => {
  const input = (name: string, over: object = {}) => ({
    name,
    schema: HOSTILE,
    args: [{ name: UNICODE, type: 'text' }],
    return_type: 'text',
    language: 'plpgsql',
    definition: `begin return '$body$ ' || "${UNICODE.replace(/"/g, '""')}" || '; drop table docs; --'; end`,
    behavior: 'STABLE',
    security_definer: true,
    config_params: { search_path: '' },
    ...over,
  });

  it('creates, lists, calls, edits and deletes a function with hostile names (owner)', async () => {
    const created = ok<PgFunction>(await call('POST', '/functions', input(HOSTILE)), databaseRoutes.createFunction);
    expect(created).toMatchObject({ schema: HOSTILE, name: HOSTILE, language: 'plpgsql', behavior: 'STABLE', security_definer: true, return_type: 'text', config_params: { search_path: '""' } });
    expect(created.args).toEqual([{ mode: 'in', name: UNICODE, type_id: 25, type_name: 'text', has_default: false }]);
    const { rows } = await p.sql(`select ${quoteIdent(HOSTILE)}.${quoteIdent(HOSTILE)}('a') as out`);
    expect(rows[0].out).toBe('$body$ a; drop table docs; --');
    expect(await exists(`select from pg_class where relname = 'docs'`)).toBe(true);

    const listed = ok<PgFunction[]>(await call('GET', `/functions?included_schemas=${encodeURIComponent(HOSTILE)}`, undefined, 'read_only'), databaseRoutes.listFunctions);
    expect(listed.map((f) => f.id)).toEqual([created.id]);

    // Same arguments: replaced in place, so the oid stays; a new name and body.
    const edited = ok<PgFunction>(await call('PATCH', `/functions/${created.id}`, input('renamed', { definition: 'begin return 1; end', behavior: 'VOLATILE' })), databaseRoutes.updateFunction);
    expect(edited).toMatchObject({ id: created.id, name: 'renamed', behavior: 'VOLATILE', definition: 'begin return 1; end' });

    // Other arguments: a new function, the old one dropped.
    const retyped = ok<PgFunction>(await call('PATCH', `/functions/${created.id}`, input('renamed', { args: [{ name: 'n', type: 'int8' }], definition: 'begin return n::text; end', schema: 'public' })), databaseRoutes.updateFunction);
    expect(retyped.id).not.toBe(created.id);
    expect(retyped.schema).toBe('public');
    expect(await exists(`select from pg_proc where oid = $1`, [created.id])).toBe(false);

    const deleted = ok<PgFunction>(await call('DELETE', `/functions/${retyped.id}`), databaseRoutes.deleteFunction);
    expect(deleted.id).toBe(retyped.id);
    expect(await exists(`select from pg_proc where proname = 'renamed'`)).toBe(false);
  });

  it('answers Postgres errors with a 400 and its message, and leaves nothing behind', async () => {
    failed(await call('POST', '/functions', input('broken', { language: 'sql', definition: 'select nope from nowhere' })), 400, /relation "nowhere" does not exist/);
    failed(await call('POST', '/functions', input('typo', { return_type: 'no_such_type' })), 400, 'type "no_such_type" does not exist');
    expect(await exists(`select from pg_proc where proname in ('broken', 'typo')`)).toBe(false);
    failed(await call('DELETE', '/functions/1'), 404, 'Function with id 1 not found');
  });

  it('lets a developer write and refuses a read-only member (403, nothing created)', async () => {
    const made = ok<PgFunction>(await call('POST', '/functions', input('dev_fn'), 'developer'), databaseRoutes.createFunction);
    failed(await call('POST', '/functions', input('ro_fn'), 'read_only'), 403);
    failed(await call('PATCH', `/functions/${made.id}`, input('ro_fn'), 'read_only'), 403);
    failed(await call('DELETE', `/functions/${made.id}`, undefined, 'read_only'), 403);
    expect(await exists(`select from pg_proc where proname = 'ro_fn'`)).toBe(false);
    ok(await call('DELETE', `/functions/${made.id}`, undefined, 'developer'), databaseRoutes.deleteFunction);
  });
});

function quoteIdent(name: string) {
  return `"${name.replace(/"/g, '""')}"`;
}

describe('triggers', () => {
  let fnId: number;
  beforeAll(async () => {
    const fn = ok<PgFunction>(
      await call('POST', '/functions', { name: 'touch', schema: 'public', args: [], return_type: 'trigger', language: 'plpgsql', definition: `begin insert into public.audit_log (note) values (tg_argv[0]); return new; end`, behavior: 'VOLATILE', security_definer: false }),
      databaseRoutes.createFunction,
    );
    fnId = fn.id;
  });

  it('creates a trigger with hostile name and arguments that fires, disables, enables and deletes it', async () => {
    const body = { name: HOSTILE, table_id: tableId, function_schema: 'public', function_name: 'touch', activation: 'BEFORE', events: ['INSERT', 'UPDATE'], orientation: 'ROW', function_args: [UNICODE, '', 'a\\b'] };
    const trigger = ok<PgTrigger>(await call('POST', '/triggers', body, 'developer'), databaseRoutes.createTrigger);
    expect(trigger).toMatchObject({ name: HOSTILE, table: 'docs', schema: 'public', activation: 'BEFORE', orientation: 'ROW', events: ['INSERT', 'UPDATE'], enabled_mode: 'ORIGIN', function_args: [UNICODE, '', 'a\\b'], function_name: 'touch' });
    await p.sql(`insert into public.docs (title) values ('a')`);
    expect((await p.sql(`select note from public.audit_log`)).rows.map((r) => r.note)).toEqual([UNICODE]);

    // The list (JSON made by Postgres) decodes the arguments as the create reply does.
    const listed = ok<PgTrigger[]>(await call('GET', '/triggers', undefined, 'read_only'), databaseRoutes.listTriggers);
    expect(listed.find((t) => t.id === trigger.id)?.function_args).toEqual([UNICODE, '', 'a\\b']);
    const disabled = ok<PgTrigger>(await call('PATCH', `/triggers/${trigger.id}`, { enabled_mode: 'DISABLED' }), databaseRoutes.updateTrigger);
    expect(disabled.enabled_mode).toBe('DISABLED');
    await p.sql(`insert into public.docs (title) values ('b')`);
    expect((await p.sql(`select count(*)::int as n from public.audit_log`)).rows[0].n).toBe(1);
    const renamed = ok<PgTrigger>(await call('PATCH', `/triggers/${trigger.id}`, { enabled_mode: 'ORIGIN', name: 'renamed' }), databaseRoutes.updateTrigger);
    expect(renamed).toMatchObject({ id: trigger.id, name: 'renamed', enabled_mode: 'ORIGIN' });
    failed(await call('PATCH', `/triggers/${trigger.id}`, { enabled_mode: 'DISABLED' }, 'read_only'), 403);
    failed(await call('DELETE', `/triggers/${trigger.id}`, undefined, 'read_only'), 403);
    ok(await call('DELETE', `/triggers/${trigger.id}`), databaseRoutes.deleteTrigger);
    expect(await exists(`select from pg_trigger where oid = $1`, [trigger.id])).toBe(false);
  });

  it('answers a missing table with 404 and a bad function with Postgres 400', async () => {
    const body = { name: 't', table_id: 1, function_schema: 'public', function_name: 'touch', activation: 'AFTER', events: ['DELETE'], orientation: 'STATEMENT' };
    failed(await call('POST', '/triggers', body), 404, 'Table or view with id 1 not found');
    failed(await call('POST', '/triggers', { ...body, table_id: tableId, function_name: 'nope' }), 400, /function public.nope\(\) does not exist/);
    failed(await call('POST', '/triggers', { ...body, events: [] }), 400);
    failed(await call('POST', '/triggers', { ...body, table_id: tableId }, 'read_only'), 403);
    expect(fnId).toBeGreaterThan(0);
  });
});

describe('enumerated types', () => {
  it('creates an enum with hostile labels, adds and renames values, renames and deletes it', async () => {
    const type = ok<PgType>(await call('POST', '/types', { schema: HOSTILE, name: HOSTILE, values: [UNICODE, HOSTILE] }, 'developer'), databaseRoutes.createType);
    expect(type).toMatchObject({ schema: HOSTILE, name: HOSTILE, enums: [UNICODE, HOSTILE] });
    const listed = ok<PgType[]>(await call('GET', `/types?included_schemas=${encodeURIComponent(HOSTILE)}`, undefined, 'read_only'), databaseRoutes.listTypes);
    expect(listed.map((t) => t.id)).toEqual([type.id]);
    const changed = ok<PgType>(
      await call('PATCH', `/types/${type.id}`, { rename_values: [{ from: HOSTILE, to: 'b' }], add_values: [{ value: 'a', after: UNICODE }, { value: 'z' }], name: 'mood' }),
      databaseRoutes.updateType,
    );
    expect(changed).toMatchObject({ id: type.id, name: 'mood', enums: [UNICODE, 'a', 'b', 'z'] });
    failed(await call('PATCH', `/types/${type.id}`, { add_values: [{ value: 'a' }] }), 400, /enum label "a" already exists/);
    failed(await call('PATCH', `/types/${type.id}`, { name: 'x' }, 'read_only'), 403);
    failed(await call('DELETE', `/types/${type.id}`, undefined, 'read_only'), 403);
    ok(await call('DELETE', `/types/${type.id}`), databaseRoutes.deleteType);
    expect(await exists(`select from pg_type where oid = $1`, [type.id])).toBe(false);
    failed(await call('DELETE', `/types/${type.id}`), 404, `Enumerated type with id ${type.id} not found`);
  });

  it('refuses to drop a type in use unless cascading', async () => {
    const type = ok<PgType>(await call('POST', '/types', { schema: 'public', name: 'status', values: ['on', 'off'] }), databaseRoutes.createType);
    await p.sql('alter table public.audit_log add column status public.status');
    failed(await call('DELETE', `/types/${type.id}`), 400, /cannot drop type status because other objects depend on it/);
    ok(await call('DELETE', `/types/${type.id}?cascade=true`), databaseRoutes.deleteType);
    expect(await exists(`select from information_schema.columns where table_name = 'audit_log' and column_name = 'status'`)).toBe(false);
  });
});

describe('extensions', () => {
  it('lists available extensions, enables one into a chosen schema, names its dependents and disables it', async () => {
    const all = ok<PgExtension[]>(await call('GET', '/extensions', undefined, 'read_only'), databaseRoutes.listExtensions);
    expect(all.find((e) => e.name === 'pg_trgm')).toMatchObject({ installed_version: null, schema: null });
    const enabled = ok<PgExtension>(await call('POST', '/extensions', { name: 'pg_trgm', schema: HOSTILE }, 'developer'), databaseRoutes.createExtension);
    expect(enabled).toMatchObject({ name: 'pg_trgm', schema: HOSTILE, installed_version: enabled.default_version });
    failed(await call('POST', '/extensions', { name: 'pg_trgm' }), 400, 'Extension "pg_trgm" is already installed');

    await p.sql(`create index docs_title_trgm on public.docs using gin (title ${quoteIdent(HOSTILE)}.gin_trgm_ops)`);
    const dependents = ok<Array<{ description: string; type: string }>>(await call('GET', '/extensions/pg_trgm/dependents', undefined, 'read_only'), databaseRoutes.extensionDependents);
    expect(dependents).toEqual([{ description: 'index docs_title_trgm', type: 'index' }]);

    failed(await call('DELETE', '/extensions/pg_trgm', undefined, 'read_only'), 403);
    failed(await call('DELETE', '/extensions/pg_trgm'), 400, /cannot drop extension pg_trgm because other objects depend on it/);
    ok(await call('DELETE', '/extensions/pg_trgm?cascade=true'), databaseRoutes.deleteExtension);
    expect(await exists(`select from pg_class where relname = 'docs_title_trgm'`)).toBe(false);
    failed(await call('DELETE', '/extensions/pg_trgm'), 404, 'Extension "pg_trgm" is not installed');
  });

  it('answers an unknown extension with 404 and an untrusted one with Postgres 400', async () => {
    failed(await call('POST', '/extensions', { name: HOSTILE }), 404, `Extension "${HOSTILE}" is not available on this server`);
    failed(await call('POST', '/extensions', { name: 'file_fdw' }), 400, /permission denied to create extension "file_fdw"/);
    failed(await call('POST', '/extensions', { name: 'hstore' }, 'read_only'), 403);
  });
});

describe('indexes', () => {
  it('creates an index with a hostile name, lists it with size and scans, and deletes it', async () => {
    await p.sql(`alter table public.docs add column ${quoteIdent(HOSTILE)} int`);
    const index = ok<PgIndex>(await call('POST', '/indexes', { name: HOSTILE, table_id: tableId, method: 'btree', columns: [HOSTILE, 'title'], unique: true }, 'developer'), databaseRoutes.createIndex);
    expect(index).toMatchObject({ name: HOSTILE, table: 'docs', schema: 'public', access_method: 'btree', is_unique: true, is_primary: false, columns: [quoteIdent(HOSTILE), 'title'], scans: 0 });
    expect(index.bytes).toBeGreaterThan(0);
    const listed = ok<PgIndex[]>(await call('GET', '/indexes?included_schemas=public', undefined, 'read_only'), databaseRoutes.listIndexes);
    expect(listed.find((i) => i.is_primary && i.table === 'docs')).toMatchObject({ columns: ['id'] });
    failed(await call('DELETE', `/indexes/${index.id}`, undefined, 'read_only'), 403);
    ok(await call('DELETE', `/indexes/${index.id}`), databaseRoutes.deleteIndex);
    expect(await exists(`select from pg_class where oid = $1`, [index.id])).toBe(false);
  });

  it('answers Postgres refusals with a 400', async () => {
    failed(await call('POST', '/indexes', { name: 'g', table_id: tableId, method: 'gin', columns: ['title'], unique: true }), 400, /access method "gin" does not support unique indexes/);
    failed(await call('POST', '/indexes', { name: 'g', table_id: tableId, method: 'btree', columns: ['nope'] }), 400, 'column "nope" does not exist');
    failed(await call('POST', '/indexes', { name: 'g', table_id: 1, method: 'btree', columns: ['a'] }), 404, 'Table with id 1 not found');
    const pk = ok<PgIndex[]>(await call('GET', '/indexes?included_schemas=public'), databaseRoutes.listIndexes).find((i) => i.is_primary && i.table === 'docs')!;
    failed(await call('DELETE', `/indexes/${pk.id}`), 400, /because constraint docs_pkey on table docs requires it/);
    failed(await call('POST', '/indexes', { name: 'ro', table_id: tableId, method: 'btree', columns: ['title'] }, 'read_only'), 403);
  });
});

describe('publications', () => {
  it('creates a publication with a hostile name for chosen tables and operations, edits and deletes it', async () => {
    const created = ok<PgPublication>(
      await call('POST', '/publications', { name: HOSTILE, tables: [{ schema: 'public', name: 'docs' }], publish_delete: false, publish_truncate: false }, 'developer'),
      databaseRoutes.createPublication,
    );
    expect(created).toMatchObject({ name: HOSTILE, publish_insert: true, publish_update: true, publish_delete: false, publish_truncate: false, tables: [{ id: tableId, name: 'docs', schema: 'public' }] });
    const changed = ok<PgPublication>(
      await call('PATCH', `/publications/${created.id}`, { tables: [{ schema: 'public', name: 'audit_log' }], publish_truncate: true, name: UNICODE }),
      databaseRoutes.updatePublication,
    );
    expect(changed).toMatchObject({ id: created.id, name: UNICODE, publish_delete: false, publish_truncate: true, tables: [{ name: 'audit_log', schema: 'public' }] });
    const emptied = ok<PgPublication>(await call('PATCH', `/publications/${created.id}`, { tables: [] }), databaseRoutes.updatePublication);
    expect(emptied.tables).toEqual([]);
    const listed = ok<PgPublication[]>(await call('GET', '/publications', undefined, 'read_only'), databaseRoutes.listPublications);
    expect(listed.map((x) => x.name)).toContain(UNICODE);
    failed(await call('PATCH', `/publications/${created.id}`, { name: 'x' }, 'read_only'), 403);
    failed(await call('DELETE', `/publications/${created.id}`, undefined, 'read_only'), 403);
    ok(await call('DELETE', `/publications/${created.id}`), databaseRoutes.deletePublication);
    expect(await exists(`select from pg_publication where oid = $1`, [created.id])).toBe(false);
  });

  it('answers a missing table with Postgres 400 and rolls back', async () => {
    failed(await call('POST', '/publications', { name: 'bad', tables: [{ schema: 'public', name: 'nope' }] }), 400, 'relation "public.nope" does not exist');
    expect(await exists(`select from pg_publication where pubname = 'bad'`)).toBe(false);
    failed(await call('POST', '/publications', { name: 'ro', tables: [] }, 'read_only'), 403);
    failed(await call('DELETE', '/publications/1'), 404, 'Publication with id 1 not found');
  });
});

describe('whole lists kept as prepared statements', () => {
  const publicFunctions = async () =>
    ok<PgFunction[]>(await call('GET', '/functions'), databaseRoutes.listFunctions)
      .filter((f) => f.schema === 'public')
      .map((f) => f.name);

  it('list what the catalog holds now, after DDL and after an editor run reset the connection', async () => {
    // Past Postgres's five custom plans, so the list may run on its cached generic plan.
    for (let i = 0; i < 6; i++) await publicFunctions();
    await p.sql('create function public.listed_later() returns int language sql as $$ select 1 $$');
    expect(await publicFunctions()).toContain('listed_later');
    // An editor run ends with `discard all` on a pooled admin connection: its prepared statements go.
    const run = await p.app.inject({ method: 'POST', url: '/default/sql/run', headers: as('owner'), payload: { query: 'select 1' } });
    expect(run.statusCode).toBe(200);
    await p.sql('drop function public.listed_later()');
    expect(await publicFunctions()).not.toContain('listed_later');
  });
});
