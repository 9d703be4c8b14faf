import pg from 'pg';
import { bootstrapProjectDatabase, dropProjectDatabase, PROJECT_ROLES, projectRoleName, scopeStatementStatistics, type ProjectConnections } from '../src/project-bootstrap';
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
    const passwords = { admin: 'pw-admin-1', read_only: 'pw-ro-1', storage: 'pw-storage-1', api: 'pw-api-1', auth: 'pw-auth-1' };
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

  it('lets the api role log in, read nothing as itself and become only the API roles', async () => {
    const api = projectRoleName(database.name, 'api');
    const { rows } = await client.query(
      `select rolcanlogin, rolinherit, rolsuper, rolbypassrls, rolcreaterole, rolcreatedb,
              array(select b.rolname::text from pg_auth_members m join pg_roles b on b.oid = m.roleid where m.member = r.oid order by 1) as member_of
       from pg_roles r where rolname = $1`,
      [api],
    );
    expect(rows[0]).toEqual({
      rolcanlogin: true, rolinherit: false, rolsuper: false, rolbypassrls: false, rolcreaterole: false, rolcreatedb: false,
      member_of: ['anon', 'authenticated', 'service_role'],
    });
    await as(connections.admin, (c) => c.query('create table if not exists public.api_probe (id int); grant select on public.api_probe to anon'));
    await as(connections.api, async (c) => {
      expect((await c.query('select current_user as u')).rows[0].u).toBe(api);
      // NOINHERIT: anon's grant is not the api role's own.
      for (const table of ['public.api_probe', 'public.ro_probe', 'auth.users', 'storage.objects']) {
        await expect(c.query(`select * from ${table}`)).rejects.toMatchObject({ code: '42501' });
      }
      await expect(c.query('create table public.api_new (id int)')).rejects.toMatchObject({ code: '42501' });
      await expect(c.query('create temporary table api_tmp (id int)')).rejects.toMatchObject({ code: '42501' });
      for (const role of ['anon', 'authenticated', 'service_role']) {
        await c.query(`begin; set local role ${role}`);
        expect((await c.query('select current_user as u')).rows[0].u).toBe(role);
        await c.query('commit');
      }
      await c.query('begin; set local role anon');
      expect((await c.query('select count(*)::int as n from public.api_probe')).rows[0].n).toBe(0);
      await c.query('commit');
      for (const role of [projectRoleName(database.name, 'admin'), projectRoleName(database.name, 'read_only'), projectRoleName(database.name, 'storage'), 'postgres', 'authenticator']) {
        await expect(c.query(`set role "${role}"`)).rejects.toMatchObject({ code: '42501' });
      }
    });
    await as(connections.admin, (c) => c.query('drop table public.api_probe'));
  });

  it('lets the auth role work on the auth tables only, and run what is granted to supabase_auth_admin', async () => {
    const auth = projectRoleName(database.name, 'auth');
    const { rows } = await client.query(
      `select rolinherit, rolsuper, rolbypassrls, array(select b.rolname::text from pg_auth_members m join pg_roles b on b.oid = m.roleid where m.member = r.oid order by 1) as member_of
       from pg_roles r where rolname = $1`,
      [auth],
    );
    expect(rows[0]).toEqual({ rolinherit: true, rolsuper: false, rolbypassrls: false, member_of: ['supabase_auth_admin'] });
    await as(connections.admin, (c) =>
      c.query(`create table if not exists public.auth_probe (id int);
               create or replace function public.auth_probe_hook(event jsonb) returns jsonb language sql as 'select event';
               revoke execute on function public.auth_probe_hook(jsonb) from public, anon, authenticated, service_role;`),
    );
    await as(connections.auth, async (c) => {
      for (const table of ['auth.users', 'auth.identities', 'auth.sessions', 'auth.refresh_tokens', 'auth.mfa_factors', 'auth.mfa_challenges', 'auth.mfa_amr_claims', 'auth.one_time_tokens', 'auth.flow_state', 'auth.audit_log_entries']) {
        expect((await c.query(`select count(*)::int as n from ${table}`)).rows[0].n).toBeGreaterThanOrEqual(0);
      }
      await c.query('begin');
      await c.query("insert into auth.users (id, email) values ('00000000-0000-4000-8000-0000000000aa', 'probe@example.com')");
      await c.query('rollback');
      for (const table of ['public.auth_probe', 'storage.objects']) await expect(c.query(`select * from ${table}`)).rejects.toMatchObject({ code: '42501' });
      await expect(c.query("select public.auth_probe_hook('{}')")).rejects.toMatchObject({ code: '42501' });
      await expect(c.query('set role anon')).rejects.toMatchObject({ code: '42501' });
    });
    // What a hosted project's docs say to grant a hook function to.
    await as(connections.admin, (c) => c.query('grant execute on function public.auth_probe_hook(jsonb) to supabase_auth_admin'));
    await as(connections.auth, async (c) => expect((await c.query(`select public.auth_probe_hook('{"a":1}') as out`)).rows[0].out).toEqual({ a: 1 }));
    await as(connections.admin, (c) => c.query('drop table public.auth_probe; drop function public.auth_probe_hook(jsonb)'));
  });

  it('tells a listening api-role connection of every DDL and drop, once per transaction', async () => {
    const api = new pg.Client({ connectionString: connections.api });
    await api.connect();
    try {
      const received: Array<{ channel: string; payload?: string }> = [];
      api.on('notification', (n) => received.push({ channel: n.channel, payload: n.payload }));
      await api.query('listen pgrst');
      const waitFor = async (count: number) => {
        for (let i = 0; i < 100 && received.length < count; i += 1) await new Promise((r) => setTimeout(r, 20));
        // A round trip delivers anything still in flight before counting.
        await api.query('select 1');
        expect(received).toHaveLength(count);
      };
      await as(connections.admin, (c) => c.query('create table public.ddl_probe (id int)'));
      await waitFor(1);
      expect(received[0]).toEqual({ channel: 'pgrst', payload: 'reload schema' });
      await as(connections.admin, (c) => c.query(`comment on table public.ddl_probe is 'probed'`));
      await waitFor(2);
      // A drop fires both triggers in one transaction: one notification.
      await as(connections.admin, (c) => c.query('drop table public.ddl_probe'));
      await waitFor(3);
      // Rows are not schema.
      await as(connections.admin, (c) => c.query(`update auth.users set email = email where email = 'nobody'`));
      await waitFor(3);
      // Any role's DDL, not only the admin's: the storage service drops a deleted bucket's policies.
      await as(connections.storage, (c) => c.query(`create policy "kit notify" on storage.objects for select to anon using (false); drop policy "kit notify" on storage.objects`));
      await waitFor(4);
      expect(received.every((n) => n.channel === 'pgrst' && n.payload === 'reload schema')).toBe(true);
      // The admin cannot take the triggers away: they need a superuser.
      expect(await failure(connections.admin, 'drop event trigger dash_schema_reload_ddl')).toBe('42501');
      expect(await failure(connections.admin, 'drop function extensions.dash_notify_schema_reload() cascade')).toBe('42501');
    } finally {
      await api.end();
    }
  });

  it("keeps one project's roles out of another project's database", async () => {
    const intruder = new URL(otherConnections.admin);
    intruder.pathname = `/${database.name}`;
    await expect(as(intruder.toString(), (c) => c.query('select 1'))).rejects.toMatchObject({ code: '42501' });
  });
});

describe('dropProjectDatabase', () => {
  it('drops the database and every project role, the api role with them', async () => {
    const doomed = await createTestDatabase('kitboot');
    await bootstrapProjectDatabase(doomed.url);
    const names = PROJECT_ROLES.map((role) => projectRoleName(doomed.name, role));
    const count = async () => (await client.query('select count(*)::int as n from pg_roles where rolname = any($1)', [names])).rows[0].n;
    expect(await count()).toBe(PROJECT_ROLES.length);
    await dropProjectDatabase(testServerUrl(), doomed.name);
    expect(await count()).toBe(0);
    expect((await client.query('select count(*)::int as n from pg_database where datname = $1', [doomed.name])).rows[0].n).toBe(0);
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
