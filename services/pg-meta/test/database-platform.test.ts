import { databasePlatformRoutes, ErrorReply, type DatabaseWebhook, type ForeignDataWrapper, type OrgRole, type RouteDef, type SchemaMigrations } from '@dash/contracts';
import { as, contractValidator, foreignServer, setupProject, type Project } from './helpers';

/*
 * The database area's Platform pages on real Postgres: wrappers with their servers and foreign tables
 * (secrets never in the reply), the Supabase CLI's migrations in each shape the table has had, and
 * webhook triggers; read by every role, never without an identity.
 */

const HOSTILE = `x"; drop table x; --`;
const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
const SECRET = 'sk_live_do_not_show';
const UNICODE = `ünï'名 🐘`;

let p: Project;
const check = contractValidator();

beforeAll(async () => {
  p = await setupProject();
});

afterAll(async () => {
  await p.close();
});

async function get(url: string, role: OrgRole = 'owner') {
  const res = await p.app.inject({ method: 'GET', url: `/default${url}`, headers: as(role) });
  return { status: res.statusCode, body: res.json(), raw: res.body };
}

async function ok<T>(url: string, def: RouteDef, role: OrgRole = 'owner'): Promise<{ body: T; raw: string }> {
  const reply = await get(url, role);
  if (reply.status !== 200) throw new Error(`${reply.status}: ${reply.raw}`);
  expect(check(def.response, reply.body)).toBeNull();
  return { body: reply.body as T, raw: reply.raw };
}

describe('wrappers', () => {
  it('lists none on a new project', async () => {
    expect((await ok<ForeignDataWrapper[]>('/wrappers', databasePlatformRoutes.listWrappers)).body).toEqual([]);
  });

  it('lists wrappers, servers and foreign tables, with secret option values left out', async () => {
    await foreignServer(p, 'plain_fdw', 'plain_server');
    await p.superuserSql(`
      alter foreign data wrapper plain_fdw options (add region 'eu');
      alter server plain_server options (add host 'db.example.com', add "API_Key" '${SECRET}', add api_key_id 'b7d1',
        add url 'postgres://app:${SECRET}@db.example.com/app', add keep_connections 'on', add sslpassword '${SECRET}');
      create extension postgres_fdw;
      create server remote_pg foreign data wrapper postgres_fdw options (host '127.0.0.1', dbname 'app', port '5432');
      create user mapping for public server remote_pg options (user 'app', password '${SECRET}');
    `);
    await p.sql(`
      create schema ${q(HOSTILE)};
      create foreign table ${q(HOSTILE)}.${q(HOSTILE)} (id int) server plain_server options (object 'customers', token '${SECRET}');
      create foreign table public.events (id int) server plain_server;
    `);
    const { body, raw } = await ok<ForeignDataWrapper[]>('/wrappers', databasePlatformRoutes.listWrappers, 'read_only');
    expect(raw).not.toContain(SECRET);
    expect(body.map((w) => w.name)).toEqual(['plain_fdw', 'postgres_fdw']);
    const [plain, postgresFdw] = body as [ForeignDataWrapper, ForeignDataWrapper];
    expect(plain).toMatchObject({ handler: null, validator: null, extension: null, options: [{ name: 'region', value: 'eu' }] });
    expect(plain.servers).toHaveLength(1);
    expect(plain.servers[0]).toMatchObject({
      name: 'plain_server',
      type: null,
      version: null,
      options: [
        { name: 'host', value: 'db.example.com' },
        { name: 'API_Key', value: null },
        { name: 'api_key_id', value: null },
        { name: 'url', value: null },
        { name: 'keep_connections', value: 'on' },
        { name: 'sslpassword', value: null },
      ],
    });
    expect(plain.servers[0]!.foreign_tables.map((t) => [t.schema, t.name, t.options])).toEqual([
      ['public', 'events', []],
      [HOSTILE, HOSTILE, [{ name: 'object', value: 'customers' }, { name: 'token', value: null }]],
    ]);
    expect(postgresFdw).toMatchObject({ handler: 'public.postgres_fdw_handler', validator: 'public.postgres_fdw_validator', extension: 'postgres_fdw' });
    expect(postgresFdw.servers.map((s) => [s.name, s.options, s.foreign_tables])).toEqual([
      ['remote_pg', [{ name: 'host', value: '127.0.0.1' }, { name: 'dbname', value: 'app' }, { name: 'port', value: '5432' }], []],
    ]);
  });
});

describe('migrations', () => {
  const list = async (role: OrgRole = 'owner') => (await ok<SchemaMigrations>('/migrations', databasePlatformRoutes.listMigrations, role)).body;

  afterEach(async () => {
    await p.superuserSql('drop schema if exists supabase_migrations cascade');
  });

  it('says the table is absent when the CLI never pushed', async () => {
    expect(await list()).toEqual({ table: 'absent', migrations: [] });
    await p.sql('create schema supabase_migrations');
    expect(await list()).toEqual({ table: 'absent', migrations: [] });
  });

  it('lists the CLI table newest first, with names and statement counts', async () => {
    await p.sql(`
      create schema supabase_migrations;
      create table supabase_migrations.schema_migrations (version text primary key, statements text[], name text);
      insert into supabase_migrations.schema_migrations values
        ('20240101000000', array['create table a (id int)', 'alter table a enable row level security'], 'init'),
        ('20240301120000', array['create table b (id int)'], ${`'${HOSTILE.replace(/'/g, "''")}'`}),
        ('20240201000000', null, 'empty');
    `);
    expect(await list('read_only')).toEqual({
      table: 'present',
      migrations: [
        { version: '20240301120000', name: HOSTILE, statements: 1 },
        { version: '20240201000000', name: 'empty', statements: 0 },
        { version: '20240101000000', name: 'init', statements: 2 },
      ],
    });
  });

  it('reads the older shapes of the table (no name, no statements)', async () => {
    await p.sql(`
      create schema supabase_migrations;
      create table supabase_migrations.schema_migrations (version bigint primary key);
      insert into supabase_migrations.schema_migrations values (20230101000000);
    `);
    expect(await list()).toEqual({ table: 'present', migrations: [{ version: '20230101000000', name: null, statements: 0 }] });
  });

  it('says so when the service may not read the table', async () => {
    await p.superuserSql(`
      create schema supabase_migrations;
      create table supabase_migrations.schema_migrations (version text primary key, statements text[], name text);
    `);
    expect(await list()).toEqual({ table: 'unreadable', migrations: [] });
    await p.superuserSql(`grant usage on schema supabase_migrations to ${new URL(p.url).username}`);
    expect(await list()).toEqual({ table: 'unreadable', migrations: [] });
  });
});

describe('webhooks', () => {
  it('lists none without webhook triggers', async () => {
    expect((await ok<DatabaseWebhook[]>('/webhooks', databasePlatformRoutes.listWebhooks)).body).toEqual([]);
  });

  it('lists http_request triggers with their target and triggers whose function calls net.http_*', async () => {
    // Stand-ins with the same names and signatures: the bodies are never run (plpgsql resolves calls when
    // run), and this server has no pg_net.
    await p.sql(`
      create schema supabase_functions;
      create function supabase_functions.http_request() returns trigger language plpgsql as $$
        begin perform net.http_post(url := tg_argv[0]); return new; end $$;
      create table public.orders (id int primary key, total numeric);
      create table ${q(HOSTILE)}.${q(UNICODE)} (id int);
      create trigger ${q(HOSTILE)} after insert or delete on ${q(HOSTILE)}.${q(UNICODE)} for each row
        execute function supabase_functions.http_request('https://example.com/ünï?a=1', 'POST', '{"Authorization": "Bearer ${SECRET}"}', '{}', '1000');
      create function public.notify_slack() returns trigger language plpgsql as $$
        begin perform NET.HTTP_POST (url := 'https://hooks.example.com/x', body := to_jsonb(new)); return new; end $$;
      create trigger notify after update on public.orders for each statement execute function public.notify_slack();
      create function public.touch() returns trigger language plpgsql as $$ begin return new; end $$;
      create trigger touch before update on public.orders for each row execute function public.touch();
      alter table public.orders disable trigger notify;
    `);
    const { body, raw } = await ok<DatabaseWebhook[]>('/webhooks', databasePlatformRoutes.listWebhooks, 'read_only');
    expect(raw).not.toContain(SECRET);
    expect(body).toEqual([
      expect.objectContaining({
        name: 'notify',
        schema: 'public',
        table: 'orders',
        kind: 'function',
        function_schema: 'public',
        function_name: 'notify_slack',
        events: ['UPDATE'],
        orientation: 'STATEMENT',
        activation: 'AFTER',
        enabled_mode: 'DISABLED',
        url: null,
        method: null,
        timeout_ms: null,
      }),
      expect.objectContaining({
        name: HOSTILE,
        schema: HOSTILE,
        table: UNICODE,
        kind: 'http_request',
        function_schema: 'supabase_functions',
        function_name: 'http_request',
        events: ['INSERT', 'DELETE'],
        orientation: 'ROW',
        enabled_mode: 'ORIGIN',
        url: 'https://example.com/ünï?a=1',
        method: 'POST',
        timeout_ms: 1000,
      }),
    ]);
  });
});

describe('access', () => {
  it.each(['administrator', 'developer', 'read_only'] as const)('lets a %s read every Platform page', async (role) => {
    for (const url of ['/wrappers', '/migrations', '/webhooks']) expect((await get(url, role)).status).toBe(200);
  });

  it('refuses a caller without an identity (401)', async () => {
    for (const url of ['/wrappers', '/migrations', '/webhooks']) {
      const res = await p.app.inject({ method: 'GET', url: `/default${url}` });
      expect(res.statusCode).toBe(401);
      expect(check(ErrorReply, res.json())).toBeNull();
    }
  });
});
