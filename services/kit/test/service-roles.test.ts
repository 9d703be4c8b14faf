import pg from 'pg';
import { withDatabase } from '../src/db';
import { ensureServiceRoles, EXPLORER_SESSION_SETTINGS, SERVICE_ROLES, type ServiceConnections } from '../src/service-roles';
import { createTestDatabase, createTestProjectDatabase, TEST_SECRET } from '../src/testing';
import { as, failure } from './pg-clients';

type Database = Awaited<ReturnType<typeof createTestDatabase>>;
let platform: Database;
let other: Database;
let project: Awaited<ReturnType<typeof createTestProjectDatabase>>;
let connections: ServiceConnections;

const rows = <R extends pg.QueryResultRow>(url: string, text: string) => as(url, async (c) => (await c.query<R>(text)).rows);

beforeAll(async () => {
  platform = await createTestDatabase('kitroles');
  other = await createTestDatabase('kitroles');
  project = await createTestProjectDatabase('kitroles');
  // What an earlier start left: the services' schemas made by the superuser.
  await as(platform.url, async (c) => {
    await c.query(`
      create schema platform;
      create table platform.things (id bigint generated always as identity primary key, name text);
      create function platform.answer() returns int language sql as 'select 42';
      create schema logs;
      create table logs.events (at timestamptz not null, message text) partition by range (at);
      create table logs.events_d1 partition of logs.events for values from ('2025-01-01') to ('2025-01-02');
      create schema log_tables;
      create view log_tables.edge_logs as select at, message from logs.events;`);
  });
  // Two platform databases bootstrapped at once: the roles are cluster-wide.
  const [mine] = await Promise.all([ensureServiceRoles(platform.url, TEST_SECRET), ensureServiceRoles(other.url, TEST_SECRET)]);
  expect(mine.fallback).toBeUndefined();
  connections = mine.connections;
});

afterAll(async () => {
  await project.drop();
  await other.drop();
  await platform.drop();
});

describe('service roles', () => {
  it('log each service in as its own role, none a superuser, creating databases or roles', async () => {
    for (const [service, role] of Object.entries(SERVICE_ROLES) as Array<[keyof ServiceConnections, string]>) {
      const [who] = await rows<{ session_user: string; rolsuper: boolean; rolcreatedb: boolean; rolcreaterole: boolean }>(
        connections[service],
        'select session_user, rolsuper, rolcreatedb, rolcreaterole from pg_roles where rolname = session_user',
      );
      expect(who).toEqual({ session_user: role, rolsuper: false, rolcreatedb: false, rolcreaterole: false });
    }
  });

  it("give the platform and logs roles their schemas and everything an earlier superuser made in them", async () => {
    const owners = await rows<{ name: string; owner: string }>(
      platform.url,
      `select nspname as name, nspowner::regrole::text as owner from pg_namespace where nspname in ('platform', 'logs', 'log_tables')
       union all select c.oid::regclass::text, c.relowner::regrole::text from pg_class c
         where c.relnamespace in ('platform'::regnamespace, 'logs'::regnamespace, 'log_tables'::regnamespace) and c.relkind in ('r', 'p', 'v', 'S')
       union all select p.oid::regprocedure::text, p.proowner::regrole::text from pg_proc p where p.pronamespace = 'platform'::regnamespace
       order by 1`,
    );
    const platformRole = SERVICE_ROLES.platform;
    const logsRole = SERVICE_ROLES.logs;
    expect(owners).toEqual([
      { name: 'log_tables', owner: logsRole },
      { name: 'log_tables.edge_logs', owner: logsRole },
      { name: 'logs', owner: logsRole },
      { name: 'logs.events', owner: logsRole },
      { name: 'logs.events_d1', owner: logsRole },
      { name: 'platform', owner: platformRole },
      { name: 'platform.answer()', owner: platformRole },
      { name: 'platform.things', owner: platformRole },
      { name: 'platform.things_id_seq', owner: platformRole },
    ]);
    // Each service works in its own schema and nowhere else.
    await as(connections.platform, (c) => c.query(`insert into platform.things (name) values ('x'); alter table platform.things add column n int`));
    expect(await failure(connections.platform, 'select * from logs.events')).toBe('42501');
    expect(await failure(connections.logs, 'select * from platform.things')).toBe('42501');
    expect(await failure(connections.mail, 'select * from platform.things')).toBe('42501');
  });

  it('let the explorer role read nothing of its own, switch to the reader, and carry the caps', async () => {
    expect(await failure(connections.logsExplorer, 'select * from log_tables.edge_logs')).toBe('42501');
    const [may] = await rows<{ create: boolean }>(connections.logsExplorer, "select has_database_privilege(current_database(), 'create') as create");
    expect(may).toEqual({ create: false });
    const [settings] = await rows<Record<string, string>>(
      connections.logsExplorer,
      `select current_setting('work_mem') as work_mem, current_setting('temp_file_limit') as temp_file_limit,
              current_setting('statement_timeout') as statement_timeout, current_setting('default_transaction_read_only') as default_transaction_read_only`,
    );
    expect(settings).toEqual({ ...EXPLORER_SESSION_SETTINGS, statement_timeout: '10s' });
    // temp_file_limit is the superuser's to change.
    expect(await failure(connections.logsExplorer, "set temp_file_limit = '10GB'")).toBe('42501');
    const role = await as(connections.logsExplorer, async (c) => {
      await c.query('set role dash_logs_reader');
      return (await c.query<{ current_user: string }>('select current_user')).rows[0]!.current_user;
    });
    expect(role).toBe('dash_logs_reader');
  });

  it("refuse a project's roles the platform database and the server's shared ones", async () => {
    const admin = project.connections.admin;
    for (const database of [platform.name, 'postgres', 'template1']) {
      await expect(rows(withDatabase(admin, database), 'select 1')).rejects.toMatchObject({ code: '42501', message: `permission denied for database "${database}"` });
    }
    // Its own database still lets it in.
    expect(await failure(admin, 'select 1')).toBeUndefined();
  });

  it('change nothing when run again, and keep the passwords', async () => {
    const again = await ensureServiceRoles(platform.url, TEST_SECRET);
    expect(again.connections).toEqual(connections);
    expect(await failure(connections.platform, 'select count(*) from platform.things')).toBeUndefined();
  });

  it('fall back to a URL that is not a superuser as it is, saying why', async () => {
    const url = withDatabase(connections.platform, platform.name);
    const outcome = await ensureServiceRoles(url, TEST_SECRET);
    expect(outcome.connections).toEqual({ platform: url, logs: url, logsExplorer: url, mail: url });
    expect(outcome.fallback).toMatch(/dash_platform_svc is not a superuser/);
  });
});
