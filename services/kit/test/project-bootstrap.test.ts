import pg from 'pg';
import { bootstrapProjectDatabase, dropProjectDatabase, projectRoleName, scopeStatementStatistics, type ProjectConnections } from '../src/project-bootstrap';
import { createTestDatabase, testServerUrl } from '../src/testing';
import { as, failure } from './pg-clients';

type Database = { name: string; url: string; drop: () => Promise<void> };
let database: Database;
let other: Database;
let connections: ProjectConnections;
let otherConnections: ProjectConnections;
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase('kitboot');
  other = await createTestDatabase('kitboot');
  // Two projects bootstrapped at once: roles are cluster-wide, so they race to create them.
  [connections, otherConnections] = await Promise.all([bootstrapProjectDatabase(database.url), bootstrapProjectDatabase(other.url)]);
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});

afterAll(async () => {
  await client.end();
  await dropProjectDatabase(testServerUrl(), database.name);
  await dropProjectDatabase(testServerUrl(), other.name);
});

describe('bootstrapProjectDatabase', () => {
  it('is idempotent', async () => {
    await client.query(`insert into storage.buckets (id, name) values ('keep', 'keep')`);
    await bootstrapProjectDatabase(database.url);
    // The stored passwords given again keep the connection strings working.
    const passwords = { admin: 'pw-admin-1', read_only: 'pw-ro-1', storage: 'pw-storage-1' };
    const again = await bootstrapProjectDatabase(database.url, passwords);
    expect(await as(again.admin, async (c) => (await c.query('select current_user as u')).rows[0].u)).toBe(projectRoleName(database.name, 'admin'));
    connections = again;
    const { rows } = await client.query('select id from storage.buckets');
    expect(rows).toEqual([{ id: 'keep' }]);
    await client.query(`delete from storage.buckets`);
  });

  it('creates the standard roles', async () => {
    const { rows } = await client.query(
      `select rolname, rolcanlogin, rolbypassrls, rolinherit from pg_roles
       where rolname in ('anon', 'authenticated', 'service_role', 'authenticator', 'dashboard_user') order by rolname`,
    );
    expect(rows).toEqual([
      { rolname: 'anon', rolcanlogin: false, rolbypassrls: false, rolinherit: false },
      { rolname: 'authenticated', rolcanlogin: false, rolbypassrls: false, rolinherit: false },
      { rolname: 'authenticator', rolcanlogin: true, rolbypassrls: false, rolinherit: false },
      { rolname: 'dashboard_user', rolcanlogin: false, rolbypassrls: false, rolinherit: true },
      { rolname: 'service_role', rolcanlogin: false, rolbypassrls: true, rolinherit: false },
    ]);
    const members = await client.query(
      `select r.rolname from pg_auth_members m join pg_roles r on r.oid = m.roleid
       where m.member = (select oid from pg_roles where rolname = 'authenticator') order by 1`,
    );
    expect(members.rows.map((r) => r.rolname)).toEqual(expect.arrayContaining(['anon', 'authenticated', 'service_role']));
  });

  it('gives auth.uid(), auth.role(), auth.email() and auth.jwt() the request claims', async () => {
    const sub = '0b2c6a2e-59a4-4f0e-9a53-9b7b1f1e3c11';
    await client.query('begin');
    try {
      await client.query(`select set_config('request.jwt.claims', $1, true)`, [
        JSON.stringify({ sub, role: 'authenticated', email: 'a@example.com' }),
      ]);
      await client.query('set local role authenticated');
      const { rows } = await client.query(`select auth.uid() as uid, auth.role() as role, auth.email() as email, auth.jwt() ->> 'sub' as jwt_sub`);
      expect(rows[0]).toEqual({ uid: sub, role: 'authenticated', email: 'a@example.com', jwt_sub: sub });
    } finally {
      await client.query('rollback');
    }
    const { rows } = await client.query(`select auth.uid() as uid, auth.role() as role, auth.jwt() as jwt`);
    expect(rows[0]).toEqual({ uid: null, role: null, jwt: {} });
  });

  it('creates storage tables with row-level security on, and it applies', async () => {
    const { rows } = await client.query(
      `select c.relname, c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'storage' and c.relkind = 'r' order by 1`,
    );
    expect(rows).toEqual([
      { relname: 'buckets', relrowsecurity: true },
      { relname: 'objects', relrowsecurity: true },
    ]);
    await client.query(`insert into storage.buckets (id, name) values ('hidden', 'hidden')`);
    await client.query('begin');
    try {
      await client.query('set local role authenticated');
      // No policy grants anything yet, so the row is invisible to a plain role...
      expect((await client.query('select count(*)::int as n from storage.buckets')).rows[0].n).toBe(0);
      await client.query('set local role service_role');
      // ...and visible to the role that bypasses RLS.
      expect((await client.query('select count(*)::int as n from storage.buckets')).rows[0].n).toBe(1);
    } finally {
      await client.query('rollback');
    }
  });

  it('provides the storage path helpers', async () => {
    const { rows } = await client.query(
      `select storage.foldername('a/b/c.png') as folders, storage.filename('a/b/c.png') as file,
              storage.extension('a/b/c.tar.gz') as ext, storage.extension('a/noext') as none`,
    );
    expect(rows[0]).toEqual({ folders: ['a', 'b'], file: 'c.png', ext: 'gz', none: '' });
  });
});

describe('project roles', () => {
  it('makes the admin role own the project and not a superuser', async () => {
    const { rows } = await as(connections.admin, (c) =>
      c.query(`select current_user as me, r.rolsuper, r.rolcreatedb, r.rolcreaterole, r.rolbypassrls,
                      (select nspowner::regrole::text from pg_namespace where nspname = 'storage') as storage_owner,
                      (select relowner::regrole::text from pg_class where oid = 'auth.users'::regclass) as users_owner,
                      pg_get_userbyid((select datdba from pg_database where datname = current_database())) as db_owner
               from pg_roles r where r.rolname = current_user`),
    );
    const admin = projectRoleName(database.name, 'admin');
    expect(rows[0]).toEqual({
      me: admin, rolsuper: false, rolcreatedb: false, rolcreaterole: true, rolbypassrls: true,
      storage_owner: admin, users_owner: admin, db_owner: admin,
    });
  });

  it('refuses what only a superuser may do, with Postgres errors', async () => {
    // 42501 insufficient_privilege for each: the role, not our code, is the boundary.
    expect(await failure(connections.admin, `copy (select 1) to program 'true'`)).toBe('42501');
    expect(await failure(connections.admin, `select pg_read_file('/etc/passwd')`)).toBe('42501');
    expect(await failure(connections.admin, `alter system set work_mem = '1GB'`)).toBe('42501');
    expect(await failure(connections.admin, `grant pg_execute_server_program to current_user`)).toBe('42501');
    expect(await failure(connections.admin, `set role postgres`)).toBe('42501');
    expect(await failure(connections.admin, `create database sneaky`)).toBe('42501');
  });

  it('lets the admin create and use roles, act as the API roles and write storage policies', async () => {
    await as(connections.admin, async (c) => {
      await c.query(`create policy "kit probe" on storage.objects for select to anon using (bucket_id = 'public')`);
      await c.query(`drop policy "kit probe" on storage.objects`);
      await c.query('create role kitboot_reporting nologin');
      await c.query('set role kitboot_reporting');
      await c.query('reset role');
      for (const role of ['anon', 'authenticated', 'service_role']) await c.query(`set role ${role}`);
      await c.query('reset role');
      await c.query('drop role kitboot_reporting');
    });
  });

  it('lets the read-only role read everything and write nothing', async () => {
    await as(connections.admin, (c) => c.query('create table public.ro_probe (id int primary key); insert into public.ro_probe values (1)'));
    await as(connections.read_only, async (c) => {
      expect((await c.query('select count(*)::int as n from public.ro_probe')).rows[0].n).toBe(1);
      expect((await c.query('select count(*)::int as n from storage.buckets')).rows[0].n).toBe(1);
      // Leaving the read-only transaction mode does not help: the role has no write privilege.
      await c.query('set default_transaction_read_only = off');
      await expect(c.query('insert into public.ro_probe values (2)')).rejects.toMatchObject({ code: '42501' });
      await expect(c.query('create table public.ro_new (id int)')).rejects.toMatchObject({ code: '42501' });
      await expect(c.query('set role anon')).rejects.toMatchObject({ code: '42501' });
    });
    await as(connections.read_only, async (c) => {
      await expect(c.query('delete from public.ro_probe')).rejects.toMatchObject({ code: '25006' });
    });
  });

  it('lets the storage role act as the API roles and touch only the storage tables', async () => {
    await as(connections.storage, async (c) => {
      await c.query('begin; set local role service_role; select count(*) from storage.objects; commit');
      expect((await c.query('select count(*)::int as n from storage.buckets')).rows[0].n).toBe(1);
      expect((await c.query(`select relowner::regrole::text as o from pg_class where oid = 'storage.objects'::regclass`)).rows[0].o).toBe(
        projectRoleName(database.name, 'storage'),
      );
      await expect(c.query('select * from public.ro_probe')).rejects.toMatchObject({ code: '42501' });
      await expect(c.query('create table public.x (id int)')).rejects.toMatchObject({ code: '42501' });
    });
  });

  it("keeps one project's roles out of another project's database", async () => {
    const intruder = new URL(otherConnections.admin);
    intruder.pathname = `/${database.name}`;
    await expect(as(intruder.toString(), (c) => c.query('select 1'))).rejects.toMatchObject({ code: '42501' });
  });
});

describe('statement statistics', () => {
  // Constants are normalised away in the statistics; an alias is kept.
  const marker = (db: string) => `select 1 as kitboot_statistics_${db}`;

  it("give a project's roles only their own database's statements, never the server-wide view", async () => {
    // Statements run in both projects' databases, each by its own admin role.
    await as(connections.admin, (c) => c.query(marker('mine')));
    await as(otherConnections.admin, (c) => c.query(marker('theirs')));
    for (const role of ['admin', 'read_only'] as const) {
      expect(await failure(connections[role], 'select count(*) from extensions.pg_stat_statements')).toBe('42501');
      expect(await failure(connections[role], 'select count(*) from extensions.pg_stat_statements(true)')).toBe('42501');
      const rows = await as(connections[role], async (c) =>
        (await c.query<{ query: string; here: boolean }>(`select query, dbid = (select oid from pg_database where datname = current_database()) as here from extensions.dash_statements()`)).rows,
      );
      expect(rows.every((r) => r.here)).toBe(true);
      expect(rows.some((r) => r.query.includes('kitboot_statistics_mine'))).toBe(true);
      expect(rows.some((r) => r.query.includes('kitboot_statistics_theirs'))).toBe(false);
    }
    // The API roles an app uses read none of it.
    expect(await failure(database.url, `set role authenticated; select count(*) from extensions.dash_statements()`)).toBe('42501');
  });

  it('are scoped in a database bootstrapped before they were, idempotently', async () => {
    // As an older bootstrap left it: the view readable by everyone, no scoped function.
    await client.query(`drop function extensions.dash_statements(); grant select on extensions.pg_stat_statements to public;
      grant execute on function extensions.pg_stat_statements(boolean) to public`);
    expect(await failure(connections.admin, 'select count(*) from extensions.pg_stat_statements')).toBeUndefined();
    await scopeStatementStatistics(database.url);
    await scopeStatementStatistics(database.url);
    expect(await failure(connections.admin, 'select count(*) from extensions.pg_stat_statements')).toBe('42501');
    expect(await failure(connections.admin, 'select count(*) from extensions.dash_statements()')).toBeUndefined();
  });
});
