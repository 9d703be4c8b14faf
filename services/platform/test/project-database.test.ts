import { platformRoutes, ServiceMessages, type RouteReply } from '@dash/contracts';
import { HttpError, databaseOf, type ProjectRolePasswords } from '@dash/service-kit';
import { serviceHeaders } from '@dash/service-kit/dist/testing';
import { createProject, decryptConnection, projectRoleConnection, seedDemo, DEMO_USERS } from '../src/app';
import { decryptRolePasswords, encryptRolePasswords, setUpMissingProjectRoles } from '../src/projects';
import { ConnectionCipher } from '../src/crypto';
import { countUsers } from '../src/db/users';
import { createOrg, databasesWithPrefix, expectContract, expectError, query, startPlatform, type TestPlatform } from './helpers';

let platform: TestPlatform;
let orgId: number;

beforeAll(async () => {
  platform = await startPlatform();
  orgId = await createOrg(platform.ctx, 'acme', []);
});
afterAll(() => platform.close());

const connectionOf = async (ref: string, role?: string) => {
  const res = await platform.app.inject({
    method: 'GET',
    url: `/internal/projects/${ref}/connection${role ? `?role=${role}` : ''}`,
    headers: serviceHeaders(),
  });
  return expectContract<RouteReply<typeof platformRoutes.projectConnection>>(platformRoutes.projectConnection, res);
};

describe('createProject', () => {
  let url: string;

  beforeAll(async () => {
    const row = await createProject(platform.ctx, { ref: 'shop', name: 'Shop', orgId });
    expect(row).toMatchObject({ ref: 'shop', name: 'Shop', org_id: orgId, status: 'ACTIVE_HEALTHY' });
    url = (await connectionOf('shop')).connectionString;
  });

  it('creates the database `${prefix}${ref}` and returns its connection string to services', async () => {
    expect(await databasesWithPrefix(platform.prefix)).toContain(`${platform.prefix}shop`);
    expect(databaseOf(url)).toBe(`${platform.prefix}shop`);
    const [row] = await query<{ db: string }>(url, 'select current_database() as db');
    expect(row!.db).toBe(`${platform.prefix}shop`);
  });

  it('stores the connection string encrypted, never in plain text', async () => {
    const [row] = await query<{ connection_encrypted: string }>(
      platform.databaseUrl,
      `select connection_encrypted from platform.projects where ref = 'shop'`,
    );
    const stored = row!.connection_encrypted;
    expect(stored).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(stored).not.toContain(`${platform.prefix}shop`);
    expect(stored).not.toContain('postgres://');
    expect(stored).not.toContain('127.0.0.1');
    // The stored URL is the server's (provisioning only); services get the project admin role's.
    const server = new URL(platform.ctx.cipher.decrypt(stored, 'project:shop'));
    expect(server.pathname).toBe(new URL(url).pathname);
    expect(new URL(url).username).toBe(`${platform.prefix}shop_admin`);
    // Bound to its project: the same ciphertext does not decrypt for another ref, nor under another key.
    expect(() => platform.ctx.cipher.decrypt(stored, 'project:other')).toThrow();
    expect(() => new ConnectionCipher('b2'.repeat(32)).decrypt(stored, 'project:shop')).toThrow();
  });

  it('gives each service its own project role, none of them a superuser', async () => {
    for (const [role, name] of [['admin', 'admin'], ['read_only', 'ro'], ['storage', 'storage'], ['api', 'api']] as const) {
      const roleUrl = (await connectionOf('shop', role)).connectionString;
      const [row] = await query<{ me: string; rolsuper: boolean }>(roleUrl, 'select current_user as me, rolsuper from pg_roles where rolname = current_user');
      expect(row).toEqual({ me: `${platform.prefix}shop_${name}`, rolsuper: false });
    }
    const [stored] = await query<{ role_passwords_encrypted: string }>(
      platform.databaseUrl,
      `select role_passwords_encrypted from platform.projects where ref = 'shop'`,
    );
    expect(stored!.role_passwords_encrypted).toMatch(/^v1:/);
    const bad = await platform.app.inject({ method: 'GET', url: '/internal/projects/shop/connection?role=postgres', headers: serviceHeaders() });
    expect(bad.statusCode).toBe(400);
  });

  it('bootstraps the standard roles', async () => {
    const rows = await query<{ rolname: string }>(
      url,
      `select rolname from pg_roles where rolname = any($1) order by rolname`,
      [['anon', 'authenticated', 'service_role', 'authenticator', 'dashboard_user']],
    );
    expect(rows.map((r) => r.rolname)).toEqual(['anon', 'authenticated', 'authenticator', 'dashboard_user', 'service_role']);
  });

  it('bootstraps auth.uid(), auth.role() and auth.jwt() reading request.jwt.claims', async () => {
    const sub = '5f0c6d4e-1c3b-4a8e-9d2f-7b6a5c4d3e2f';
    const [row] = await query<{ uid: string; role: string; email: string }>(
      url,
      `select set_config('request.jwt.claims', $1, false) is not null as ok,
              auth.uid() as uid, auth.role() as role, auth.jwt() ->> 'email' as email`,
      [JSON.stringify({ sub, role: 'authenticated', email: 'a@example.com' })],
    );
    expect(row).toMatchObject({ uid: sub, role: 'authenticated', email: 'a@example.com' });
    const [empty] = await query<{ uid: string | null }>(url, 'select auth.uid() as uid');
    expect(empty!.uid).toBeNull();
  });

  it('bootstraps the storage schema with row-level security on', async () => {
    const rows = await query<{ relname: string; relrowsecurity: boolean }>(
      url,
      `select c.relname, c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'storage' and c.relname in ('buckets', 'objects') order by c.relname`,
    );
    expect(rows).toEqual([
      { relname: 'buckets', relrowsecurity: true },
      { relname: 'objects', relrowsecurity: true },
    ]);
  });

  it('refuses a duplicate ref with 409 and a bad ref with 400', async () => {
    await expect(createProject(platform.ctx, { ref: 'shop', name: 'Again', orgId })).rejects.toMatchObject({ statusCode: 409 });
    await expect(createProject(platform.ctx, { ref: 'Bad Ref', name: 'x', orgId })).rejects.toBeInstanceOf(HttpError);
    await expect(createProject(platform.ctx, { ref: 'x'.repeat(60), name: 'x', orgId })).rejects.toMatchObject({ statusCode: 400 });
    await expect(createProject(platform.ctx, { ref: 'internal', name: 'x', orgId })).rejects.toMatchObject({ statusCode: 400 });
    await expect(createProject(platform.ctx, { ref: 'orphan', name: 'x', orgId: 999_999 })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('gives a project made before the project roles its roles at start, and its tables to the admin role', async () => {
    await createProject(platform.ctx, { ref: 'legacy', name: 'Legacy', orgId });
    const row = await platform.ctx.db.selectFrom('projects').selectAll().where('ref', '=', 'legacy').executeTakeFirstOrThrow();
    // As such a project was: tables made by the superuser, no role passwords stored.
    await query(decryptConnection(platform.ctx, row), 'create table public.old_orders (id int primary key)');
    await platform.ctx.db.updateTable('projects').set({ role_passwords_encrypted: null }).where('ref', '=', 'legacy').execute();
    const before = await platform.app.inject({ method: 'GET', url: '/internal/projects/legacy/connection', headers: serviceHeaders() });
    expect(before.statusCode).toBe(503);

    expect(await setUpMissingProjectRoles(platform.ctx)).toEqual({ upgraded: ['legacy'], failed: [] });
    const admin = (await connectionOf('legacy')).connectionString;
    const [owner] = await query<{ owner: string }>(admin, `select relowner::regrole::text as owner from pg_class where oid = 'public.old_orders'::regclass`);
    expect(owner!.owner).toBe(`${platform.prefix}legacy_admin`);
    await query(admin, 'alter table public.old_orders add column total numeric');
    expect(await setUpMissingProjectRoles(platform.ctx)).toEqual({ upgraded: [], failed: [] });
  });

  it('gives a project made before the api role that role at start, keeping the other roles\' passwords', async () => {
    await createProject(platform.ctx, { ref: 'preapi', name: 'Pre API', orgId });
    const row = await platform.ctx.db.selectFrom('projects').selectAll().where('ref', '=', 'preapi').executeTakeFirstOrThrow();
    const admin = (await connectionOf('preapi')).connectionString;
    // As such a project was: no api role in its database, none in its stored passwords.
    const api = `${platform.prefix}preapi_api`;
    await query(decryptConnection(platform.ctx, row), `revoke all on database "${platform.prefix}preapi" from "${api}"; drop role "${api}"`);
    const { api: _dropped, ...older } = decryptRolePasswords(platform.ctx, row);
    await platform.ctx.db.updateTable('projects').set({ role_passwords_encrypted: encryptRolePasswords(platform.ctx, 'preapi', older as ProjectRolePasswords) }).where('ref', '=', 'preapi').execute();
    const before = await platform.app.inject({ method: 'GET', url: '/internal/projects/preapi/connection?role=api', headers: serviceHeaders() });
    expectError(platformRoutes.projectConnection, before, 503, 'The api role of project preapi is not set up yet');

    // A paused project's server may be down: it is named, left as it was, and tried again at the next start.
    const reachable = row.connection_encrypted;
    await platform.ctx.db.updateTable('projects').set({ connection_encrypted: platform.ctx.cipher.encrypt('postgres://nobody@127.0.0.1:1/none', 'project:preapi') }).where('ref', '=', 'preapi').execute();
    expect(await setUpMissingProjectRoles(platform.ctx)).toEqual({ upgraded: [], failed: ['preapi'] });
    await platform.ctx.db.updateTable('projects').set({ connection_encrypted: reachable }).where('ref', '=', 'preapi').execute();

    expect(await setUpMissingProjectRoles(platform.ctx)).toEqual({ upgraded: ['preapi'], failed: [] });
    expect(await setUpMissingProjectRoles(platform.ctx)).toEqual({ upgraded: [], failed: [] });
    // The admin's connection string still logs in; the api role's now does, and it is the data API's login.
    expect((await connectionOf('preapi')).connectionString).toBe(admin);
    expect((await query<{ me: string }>(admin, 'select current_user as me'))[0]!.me).toBe(`${platform.prefix}preapi_admin`);
    const apiUrl = (await connectionOf('preapi', 'api')).connectionString;
    expect((await query<{ me: string }>(apiUrl, 'select current_user as me'))[0]!.me).toBe(api);
    await expect(query(apiUrl, 'select * from auth.users')).rejects.toMatchObject({ code: '42501' });
  });

  it('answers 404 for the connection of an unknown project', async () => {
    const res = await platform.app.inject({ method: 'GET', url: '/internal/projects/nope/connection', headers: serviceHeaders() });
    expectError(platformRoutes.projectConnection, res, 404, ServiceMessages.projectNotFound);
  });
});

describe('seedDemo', () => {
  let seeded: TestPlatform;
  beforeAll(async () => {
    seeded = await startPlatform();
  });
  afterAll(() => seeded.close());

  it('seeds the demo org, project, users and demo data once', async () => {
    const first = await seedDemo(seeded.ctx, { password: 'demo-password-123' });
    expect(first.seeded).toBe(true);
    expect(first.users.map((u) => [u.email, u.role])).toEqual([
      ['owner@example.com', 'owner'],
      ['viewer@example.com', 'read_only'],
    ]);
    expect(DEMO_USERS).toHaveLength(2);

    const signIn = (email: string) =>
      seeded.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email, password: 'demo-password-123' } });
    expect((await signIn('owner@example.com')).json()).toMatchObject({ user: { email: 'owner@example.com', name: 'Demo Owner' } });
    expect((await signIn('viewer@example.com')).json()).toMatchObject({ user: { name: 'Demo Viewer' } });

    const [org] = await query<{ slug: string; name: string }>(seeded.databaseUrl, 'select slug, name from platform.organizations');
    expect(org).toEqual({ slug: 'demo', name: 'Demo organization' });
    const [project] = await query<{ ref: string; name: string; plan: string }>(seeded.databaseUrl, 'select ref, name, plan from platform.projects');
    // On Pro, so the storage settings page can change the upload limit.
    expect(project).toEqual({ ref: 'default', name: 'Default project', plan: 'pro' });

    const projectRow = await seeded.ctx.db.selectFrom('projects').selectAll().where('ref', '=', 'default').executeTakeFirstOrThrow();
    const url = projectRoleConnection(seeded.ctx, projectRow, 'admin');
    // The demo tables belong to the project admin role, so the dashboard can change them.
    const [owner] = await query<{ owner: string }>(url, `select relowner::regrole::text as owner from pg_class where oid = 'public.todos'::regclass`);
    expect(owner!.owner).toBe(new URL(url).username);
    const [counts] = await query<{ countries: number; todos: number }>(
      url,
      'select (select count(*)::int from public.countries) as countries, (select count(*)::int from public.todos) as todos',
    );
    expect(counts!.countries).toBeGreaterThan(0);
    expect(counts!.todos).toBeGreaterThan(0);
    const [cities] = await query<{ linked: number; orphans: number }>(
      url,
      'select count(c.id)::int as linked, count(*) filter (where c.country_id is null)::int as orphans from public.cities c',
    );
    expect(cities!.linked).toBeGreaterThan(0);
    expect(cities!.orphans).toBe(0);
    const [rls] = await query<{ relrowsecurity: boolean }>(url, `select relrowsecurity from pg_class where oid = 'public.todos'::regclass`);
    expect(rls!.relrowsecurity).toBe(true);
    const policies = await query<{ policyname: string; cmd: string; qual: string }>(
      url,
      `select policyname, cmd, qual from pg_policies where schemaname = 'public' and tablename = 'todos'`,
    );
    expect(policies).toEqual([{ policyname: 'Enable read access for all users', cmd: 'SELECT', qual: 'true' }]);

    // Idempotent: a second run changes nothing.
    const second = await seedDemo(seeded.ctx, { password: 'other' });
    expect(second.seeded).toBe(false);
    expect(await countUsers(seeded.ctx.db)).toBe(2);
    const [again] = await query<{ countries: number }>(url, 'select count(*)::int as countries from public.countries');
    expect(again!.countries).toBe(counts!.countries);
    expect((await signIn('owner@example.com')).statusCode).toBe(200);
  });
});
