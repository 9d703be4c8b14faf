import {
  PROJECT_REF_LENGTH,
  ProjectMessages,
  ProjectSettingsMessages,
  projectLifecycleRoutes as routes,
  ServiceMessages,
  type Project,
  type ProjectInfrastructure,
  type ProjectLifecycle,
} from '@dash/contracts';
import { connectProject, databaseOf, ensureDatabase, PROJECT_ROLES, ProjectPools, projectRoleUrl } from '@dash/service-kit';
import { freePort } from '@dash/service-kit/dist/postgres';
import { serviceHeaders, testServerUrl, userHeaders, waitUntil } from '@dash/service-kit/dist/testing';
import { buildPlatformApp } from '../src/app';
import { projectRolesOf } from '../src/db/projects';
import { decryptConnection, insertProject } from '../src/projects';
import { Provisioner, provisionerOf } from '../src/provisioner';
import { createOrgWithEveryRole, databasesWithPrefix, expectContract, expectError, query, startPlatform, type TestPlatform } from './helpers';

type User = { id: string; email: string };

let platform: TestPlatform;
let orgId: number;
let users: Awaited<ReturnType<typeof createOrgWithEveryRole>>['users'];
const PASSWORD = 'Tr1cky-Database-Pass';

beforeAll(async () => {
  platform = await startPlatform();
  ({ orgId, users } = await createOrgWithEveryRole(platform.ctx));
});
afterAll(() => platform.close());

/** The headers the gateway would send for `user` now (its roles per project, from the members table). */
const as = async (user: User) => userHeaders(await projectRolesOf(platform.ctx.db, user.id), user.id, user.email);
const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, user?: User, payload?: object) =>
  platform.app.inject({ method, url, headers: user ? await as(user) : {}, ...(payload ? { payload } : {}) });

const create = (user: User, body: Record<string, unknown> = {}) =>
  call('POST', '/projects', user, { name: 'Shop', organization_slug: 'acme', db_pass: PASSWORD, ...body });
const lifecycle = async (ref: string) => expectContract<ProjectLifecycle>(routes.projectLifecycle, await call('GET', `/projects/${ref}/lifecycle`, users.owner));
const rowOf = (ref: string) => platform.ctx.db.selectFrom('projects').selectAll().where('ref', '=', ref).executeTakeFirstOrThrow();
const auditOf = (ref: string) =>
  query<{ action: string; actor_email: string | null; target: string; details: Record<string, unknown> }>(
    platform.databaseUrl,
    'select action, actor_email, target, details from platform.audit_events where project_ref = $1 order by id',
    [ref],
  );

const waitFor = (check: () => Promise<boolean>, what: string) => waitUntil(check, what, 20_000);

/** The project admin role's connection, logging in with the password the creator chose. */
async function adminUrlOf(ref: string): Promise<string> {
  return projectRoleUrl(decryptConnection(platform.ctx, await rowOf(ref)), 'admin', PASSWORD);
}

/** A project brought up through the route by the owner. */
async function activeProject(name: string): Promise<string> {
  const project = expectContract<Project>(routes.createProject, await create(users.owner, { name }), 201);
  await provisionerOf(platform.ctx).run(project.ref);
  return project.ref;
}

describe('creating a project', () => {
  it('answers at once with the project coming up, then brings it up in the background', async () => {
    const res = await create(users.owner, { name: '  Shop  ' });
    const project = expectContract<Project>(routes.createProject, res, 201);
    expect(project).toMatchObject({ name: 'Shop', status: 'COMING_UP', organization_slug: 'acme', role: 'owner' });
    expect(project.ref).toMatch(new RegExp(`^[a-z]{${PROJECT_REF_LENGTH}}$`));

    await waitFor(async () => (await lifecycle(project.ref)).status === 'ACTIVE_HEALTHY', 'the project is up');
    expect(await lifecycle(project.ref)).toEqual({
      ref: project.ref,
      name: 'Shop',
      status: 'ACTIVE_HEALTHY',
      provisioning: { step: 'ready', error: null, attempts: 1 },
      paused_at: null,
    });
    // The creator's password is the project admin role's.
    const [me] = await query<{ me: string }>(await adminUrlOf(project.ref), 'select current_user as me');
    expect(me!.me).toBe(`${platform.prefix}${project.ref}_admin`);
    expect(await auditOf(project.ref)).toEqual([{ action: 'project.created', actor_email: 'owner@example.com', target: 'Shop', details: {} }]);
  });

  it('lets owners and administrators create, and no one else', async () => {
    expectContract<Project>(routes.createProject, await create(users.administrator, { name: 'By an administrator' }), 201);
    expectError(routes.createProject, await create(users.developer), 403, ProjectMessages.cannotCreate);
    expectError(routes.createProject, await create(users.read_only), 403, ProjectMessages.cannotCreate);
    // An organization the caller is not a member of does not exist for them.
    expectError(routes.createProject, await create(users.outsider), 404, ProjectMessages.organizationNotFound);
    expectError(routes.createProject, await create(users.owner, { organization_slug: 'nope' }), 404, ProjectMessages.organizationNotFound);
    expectError(routes.createProject, await call('POST', '/projects', undefined, { name: 'x', organization_slug: 'acme', db_pass: PASSWORD }), 401);
  });

  it('refuses a blank name and weak database passwords with a clear 400, before making anything', async () => {
    const before = (await platform.ctx.db.selectFrom('projects').select('ref').execute()).length;
    expectError(routes.createProject, await create(users.owner, { name: '   ' }), 400, ProjectMessages.nameRequired);
    expectError(routes.createProject, await create(users.owner, { name: 'x'.repeat(65) }), 400, ProjectMessages.nameTooLong);
    expectError(routes.createProject, await create(users.owner, { db_pass: '' }), 400, ProjectMessages.passwordRequired);
    expectError(routes.createProject, await create(users.owner, { db_pass: 'Sh0rt!' }), 400, ProjectSettingsMessages.passwordTooShort);
    expectError(routes.createProject, await create(users.owner, { db_pass: 'alllowercaseletters' }), 400, ProjectMessages.passwordTooSimple);
    expectError(routes.createProject, await create(users.owner, { db_pass: 'Pässwörd-1234567' }), 400, ProjectSettingsMessages.passwordCharacters);
    expectError(routes.createProject, await create(users.owner, { region: 'eu' }), 400, /additional/);
    expect((await platform.ctx.db.selectFrom('projects').select('ref').execute()).length).toBe(before);
  });
});

describe('reading a project', () => {
  let ref: string;
  beforeAll(async () => {
    ref = await activeProject('Readable');
  });

  it('shows every member its lifecycle, and no one else', async () => {
    for (const role of ['owner', 'administrator', 'developer', 'read_only'] as const) {
      const body = expectContract<ProjectLifecycle>(routes.projectLifecycle, await call('GET', `/projects/${ref}/lifecycle`, users[role]));
      expect(body.status).toBe('ACTIVE_HEALTHY');
    }
    expectError(routes.projectLifecycle, await call('GET', `/projects/${ref}/lifecycle`, users.outsider), 404, ServiceMessages.projectNotFound);
  });

  it('reads the Postgres version and database size from the project database as its admin role', async () => {
    const [server] = await query<{ server_version: string }>(testServerUrl(), 'show server_version');
    for (const role of ['owner', 'read_only'] as const) {
      const body = expectContract<ProjectInfrastructure>(routes.projectInfrastructure, await call('GET', `/projects/${ref}/infrastructure`, users[role]));
      expect(body.postgres_version).toBe(server!.server_version);
      expect(body.database_size_bytes).toBeGreaterThan(1024 * 1024);
    }
    expectError(routes.projectInfrastructure, await call('GET', `/projects/${ref}/infrastructure`, users.outsider), 404);
  });

  it('tells the gateway the status of a project, and only the gateway', async () => {
    const url = `/internal/projects/${ref}/status`;
    expect(expectContract(routes.projectStatus, await platform.app.inject({ method: 'GET', url, headers: serviceHeaders() }))).toEqual({ ref, status: 'ACTIVE_HEALTHY' });
    expectError(routes.projectStatus, await call('GET', url, users.owner), 403, ServiceMessages.internalOnly);
    expectError(routes.projectStatus, await platform.app.inject({ method: 'GET', url }), 401, ServiceMessages.internalOnly);
    expectError(routes.projectStatus, await platform.app.inject({ method: 'GET', url: '/internal/projects/nope/status', headers: serviceHeaders() }), 404);
  });
});

describe('renaming a project', () => {
  let ref: string;
  beforeAll(async () => {
    ref = await activeProject('Before');
  });
  const rename = (user: User, name: string) => call('PATCH', `/projects/${ref}`, user, { name });

  it('lets owners and administrators rename, and records it', async () => {
    expect(expectContract<Project>(routes.renameProject, await rename(users.owner, ' After ')).name).toBe('After');
    expect(expectContract<Project>(routes.renameProject, await rename(users.administrator, 'Later')).name).toBe('Later');
    const renames = (await auditOf(ref)).filter((e) => e.action === 'project.renamed');
    expect(renames).toEqual([
      { action: 'project.renamed', actor_email: 'owner@example.com', target: 'After', details: { from: 'Before' } },
      { action: 'project.renamed', actor_email: 'administrator@example.com', target: 'Later', details: { from: 'After' } },
    ]);
  });

  it('refuses other roles, non-members and a blank name', async () => {
    expectError(routes.renameProject, await rename(users.developer, 'No'), 403, ServiceMessages.forbidden);
    expectError(routes.renameProject, await rename(users.read_only, 'No'), 403, ServiceMessages.forbidden);
    expectError(routes.renameProject, await rename(users.outsider, 'No'), 404, ServiceMessages.projectNotFound);
    expectError(routes.renameProject, await rename(users.owner, ' '), 400, ProjectMessages.nameRequired);
    expect((await rowOf(ref)).name).toBe('Later');
  });
});

describe('pausing and restoring a project', () => {
  let ref: string;
  beforeAll(async () => {
    ref = await activeProject('Pausable');
  });
  const pause = (user: User) => call('POST', `/projects/${ref}/pause`, user);
  const restore = (user: User) => call('POST', `/projects/${ref}/restore`, user);
  const backends = async () =>
    (await query<{ n: number }>(testServerUrl(), 'select count(*)::int as n from pg_stat_activity where datname = $1', [`${platform.prefix}${ref}`]))[0]!.n;

  it('refuses developers, read-only members and non-members', async () => {
    for (const attempt of [pause, restore]) {
      expectError(routes.pauseProject, await attempt(users.developer), 403, ServiceMessages.forbidden);
      expectError(routes.pauseProject, await attempt(users.read_only), 403, ServiceMessages.forbidden);
      expectError(routes.pauseProject, await attempt(users.outsider), 404, ServiceMessages.projectNotFound);
    }
    expect((await rowOf(ref)).status).toBe('ACTIVE_HEALTHY');
  });

  it('pauses: the database refuses connections and the open ones (a service pool’s) end', async () => {
    // A service's pools with an idle connection, as pg-meta keeps them.
    const adminUrl = await adminUrlOf(ref);
    const pools = new ProjectPools(async () => adminUrl);
    const pool = await pools.get(ref);
    (await connectProject(pools, ref)).release();
    expect(pool.idleCount).toBe(1);

    const paused = expectContract<Project>(routes.pauseProject, await pause(users.owner));
    expect(paused.status).toBe('INACTIVE');
    await waitFor(async () => pool.totalCount === 0, 'the pool lost its connection');
    expect(await backends()).toBe(0);
    await expect(connectProject(pools, ref)).rejects.toMatchObject({ statusCode: 503 });
    await expect(query(adminUrl, 'select 1')).rejects.toThrow(/not currently accepting connections/);
    await pools.closeAll();

    expect((await lifecycle(ref)).paused_at).not.toBeNull();
    expectError(routes.projectInfrastructure, await call('GET', `/projects/${ref}/infrastructure`, users.owner), 503, ProjectMessages.projectPaused(ref));
    const status = await platform.app.inject({ method: 'GET', url: `/internal/projects/${ref}/status`, headers: serviceHeaders() });
    expect(status.json()).toEqual({ ref, status: 'INACTIVE' });
    expectError(routes.pauseProject, await pause(users.administrator), 409, ProjectMessages.alreadyPaused);
  });

  it('restores: the database takes connections again', async () => {
    const restored = expectContract<Project>(routes.restoreProject, await restore(users.administrator));
    expect(restored.status).toBe('ACTIVE_HEALTHY');
    expect((await lifecycle(ref)).paused_at).toBeNull();
    const [row] = await query<{ one: number }>(await adminUrlOf(ref), 'select 1 as one');
    expect(row!.one).toBe(1);
    expectError(routes.restoreProject, await restore(users.owner), 409, ProjectMessages.notPaused);
    expect((await auditOf(ref)).map((e) => [e.action, e.actor_email])).toEqual([
      ['project.created', 'owner@example.com'],
      ['project.paused', 'owner@example.com'],
      ['project.restored', 'administrator@example.com'],
    ]);
  });
});

describe('a project whose creation fails part-way', () => {
  const comingUp = (name: string) => insertProject(platform.ctx, { name, orgId, databasePassword: PASSWORD, actor: users.owner });

  it('records the failure, stays COMING_UP, and comes up when a member retries', async () => {
    const { ref } = await comingUp('Unlucky');
    // The server is unreachable while the database would be created.
    const unreachable = new Provisioner({ ...platform.ctx, adminUrl: `postgres://postgres@127.0.0.1:${await freePort()}/postgres` }, { retryDelaysMs: [] });
    await expect(unreachable.run(ref)).rejects.toThrow(/ECONNREFUSED|connect/);
    const failed = await lifecycle(ref);
    expect(failed).toMatchObject({ status: 'COMING_UP', provisioning: { step: 'creating_database', attempts: 1 } });
    expect(failed.provisioning.error).toMatch(/ECONNREFUSED|connect/);

    // A project coming up has no APIs and cannot be paused yet.
    expectError(routes.projectInfrastructure, await call('GET', `/projects/${ref}/infrastructure`, users.owner), 503, ProjectMessages.projectComingUp(ref));
    expectError(routes.pauseProject, await call('POST', `/projects/${ref}/pause`, users.owner), 409, ProjectMessages.stillComingUp);

    const retry = (user: User) => call('POST', `/projects/${ref}/provisioning/retry`, user);
    expectError(routes.retryProvisioning, await retry(users.developer), 403, ServiceMessages.forbidden);
    expectError(routes.retryProvisioning, await retry(users.read_only), 403, ServiceMessages.forbidden);
    expectError(routes.retryProvisioning, await retry(users.outsider), 404, ServiceMessages.projectNotFound);
    expect(expectContract<ProjectLifecycle>(routes.retryProvisioning, await retry(users.administrator)).provisioning.error).toBeNull();
    await provisionerOf(platform.ctx).run(ref);
    expect(await lifecycle(ref)).toMatchObject({ status: 'ACTIVE_HEALTHY', provisioning: { step: 'ready', error: null, attempts: 2 } });
    expectError(routes.retryProvisioning, await retry(users.owner), 409, ProjectMessages.notComingUp);
  });

  it('retries on its own after a failure half way (database made, not set up)', async () => {
    const row = await comingUp('Half made');
    const database = databaseOf(decryptConnection(platform.ctx, row));
    await ensureDatabase(testServerUrl(), database);
    await query(testServerUrl(), `alter database "${database}" allow_connections false`);
    const provisioner = new Provisioner(platform.ctx, { retryDelaysMs: Array(50).fill(200) });
    try {
      provisioner.start(row.ref);
      await waitFor(async () => (await lifecycle(row.ref)).provisioning.error !== null, 'the failure is recorded');
      expect(await lifecycle(row.ref)).toMatchObject({ status: 'COMING_UP', provisioning: { step: 'configuring' } });
      await query(testServerUrl(), `alter database "${database}" allow_connections true`);
      await waitFor(async () => (await lifecycle(row.ref)).status === 'ACTIVE_HEALTHY', 'the retry brought it up');
      expect((await lifecycle(row.ref)).provisioning.error).toBeNull();
    } finally {
      await provisioner.close();
    }
    const [me] = await query<{ me: string }>(await adminUrlOf(row.ref), 'select current_user as me');
    expect(me!.me).toBe(`${database}_admin`);
  });

  it('is resumed by the next start of the platform', async () => {
    const row = await comingUp('Interrupted');
    // As a platform stopped right after creating the database.
    await ensureDatabase(testServerUrl(), databaseOf(decryptConnection(platform.ctx, row)));
    const restarted = await buildPlatformApp(platform.config);
    try {
      const provisioner = provisionerOf(restarted.platform);
      expect(await provisioner.resume()).toContain(row.ref);
      await provisioner.run(row.ref);
    } finally {
      await restarted.close();
    }
    expect(await lifecycle(row.ref)).toMatchObject({ status: 'ACTIVE_HEALTHY', provisioning: { step: 'ready' } });
    await query(await adminUrlOf(row.ref), 'select 1');
  });
});

describe('deleting a project', () => {
  const remove = (ref: string, user: User, name: string) => call('DELETE', `/projects/${ref}`, user, { name });
  const rolesOf = async (database: string) =>
    (await query<{ rolname: string }>(testServerUrl(), 'select rolname from pg_roles where starts_with(rolname, $1)', [database])).map((r) => r.rolname);

  it('refuses developers, read-only members and non-members', async () => {
    const ref = await activeProject('Kept');
    expectError(routes.deleteProject, await remove(ref, users.developer, 'Kept'), 403, ServiceMessages.forbidden);
    expectError(routes.deleteProject, await remove(ref, users.read_only, 'Kept'), 403, ServiceMessages.forbidden);
    expectError(routes.deleteProject, await remove(ref, users.outsider, 'Kept'), 404, ServiceMessages.projectNotFound);
    expect((await rowOf(ref)).status).toBe('ACTIVE_HEALTHY');
  });

  it("needs the project's name in the body: a wrong or missing name deletes nothing (400)", async () => {
    const ref = await activeProject('Precious');
    expectError(routes.deleteProject, await remove(ref, users.owner, 'Other'), 400, ProjectMessages.deleteNameMismatch);
    expectError(routes.deleteProject, await remove(ref, users.owner, 'precious'), 400, ProjectMessages.deleteNameMismatch);
    expectError(routes.deleteProject, await remove(ref, users.owner, ''), 400, ProjectMessages.deleteNameMismatch);
    expectError(routes.deleteProject, await call('DELETE', `/projects/${ref}`, users.owner, {}), 400, /name/);
    expectError(routes.deleteProject, await call('DELETE', `/projects/${ref}`, users.owner), 400);
    expect((await rowOf(ref)).status).toBe('ACTIVE_HEALTHY');
    expect(await databasesWithPrefix(`${platform.prefix}${ref}`)).toHaveLength(1);
  });

  it('deletes the row, then drops the database and its roles', async () => {
    const ref = await activeProject('Doomed');
    const database = `${platform.prefix}${ref}`;
    expect(await rolesOf(database)).toHaveLength(PROJECT_ROLES.length);
    expect(expectContract(routes.deleteProject, await remove(ref, users.administrator, 'Doomed'))).toEqual({ ok: true });
    expect(await platform.ctx.db.selectFrom('projects').select('id').where('ref', '=', ref).executeTakeFirst()).toBeUndefined();
    expect(await databasesWithPrefix(database)).toEqual([]);
    expect(await rolesOf(database)).toEqual([]);
    expect((await auditOf(ref)).at(-1)).toEqual({ action: 'project.deleted', actor_email: 'administrator@example.com', target: 'Doomed', details: {} });
    expectError(routes.projectLifecycle, await call('GET', `/projects/${ref}/lifecycle`, users.owner), 404);
    expectError(routes.deleteProject, await remove(ref, users.owner, 'Doomed'), 404, ServiceMessages.projectNotFound);
  });

  it('deletes a project that never came up, and its half-made database', async () => {
    const row = await insertProject(platform.ctx, { name: 'Stuck', orgId, databasePassword: PASSWORD, actor: users.owner });
    const database = databaseOf(decryptConnection(platform.ctx, row));
    await ensureDatabase(testServerUrl(), database);
    expectContract(routes.deleteProject, await remove(row.ref, users.owner, 'Stuck'));
    expect(await databasesWithPrefix(database)).toEqual([]);
  });
});
