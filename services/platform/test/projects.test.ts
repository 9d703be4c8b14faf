import {
  platformRoutes,
  ROLE_PERMISSIONS,
  ServiceMessages,
  type Organization,
  type Project,
  type RouteReply,
} from '@dash/contracts';
import { serviceHeaders, userHeaders } from '@dash/service-kit/dist/testing';
import { newSessionToken } from '../src/crypto';
import { insertSession } from '../src/db/sessions';
import { createOrg, createUser, expectContract, expectError, insertProjectRow, query, startPlatform, type TestPlatform } from './helpers';

let platform: TestPlatform;
let alice: { id: string; email: string }; // owner of org A, read-only in org B
let bob: { id: string; email: string }; // read-only in org A
let carol: { id: string; email: string }; // member of nothing

beforeAll(async () => {
  platform = await startPlatform();
  alice = await createUser(platform.ctx, 'alice@example.com', 'Alice');
  bob = await createUser(platform.ctx, 'bob@example.com', 'Bob');
  carol = await createUser(platform.ctx, 'carol@example.com', 'Carol');
  const orgA = await createOrg(platform.ctx, 'org-a', [
    [alice.id, 'owner'],
    [bob.id, 'read_only'],
  ]);
  const orgB = await createOrg(platform.ctx, 'org-b', [[alice.id, 'read_only']]);
  const orgC = await createOrg(platform.ctx, 'org-c', [[carol.id, 'developer']]);
  await insertProjectRow(platform.ctx, 'alpha', orgA);
  await insertProjectRow(platform.ctx, 'beta', orgA);
  await insertProjectRow(platform.ctx, 'gamma', orgB);
  await insertProjectRow(platform.ctx, 'secret', orgC);
});
afterAll(() => platform.close());

const as = (user: { id: string; email: string }) => userHeaders({}, user.id, user.email);
const get = (url: string, headers: Record<string, string> = {}) => platform.app.inject({ method: 'GET', url, headers });

describe('projects', () => {
  it('lists only the projects of organizations the user belongs to, with the role in each', async () => {
    const aliceProjects = expectContract<{ projects: Project[] }>(platformRoutes.listProjects, await get('/projects', as(alice)));
    expect(aliceProjects.projects.map((p) => [p.ref, p.role, p.organization_slug])).toEqual([
      ['alpha', 'owner', 'org-a'],
      ['beta', 'owner', 'org-a'],
      ['gamma', 'read_only', 'org-b'],
    ]);
    expect(aliceProjects.projects[0]).toMatchObject({ name: 'Project alpha', status: 'ACTIVE_HEALTHY', organization_name: 'Org org-a' });

    const bobProjects = expectContract<{ projects: Project[] }>(platformRoutes.listProjects, await get('/projects', as(bob)));
    expect(bobProjects.projects.map((p) => p.ref)).toEqual(['alpha', 'beta']);
  });

  it('gets a project of a member and answers 404 to anyone else', async () => {
    const project = expectContract<Project>(platformRoutes.getProject, await get('/projects/alpha', as(bob)));
    expect(project).toMatchObject({ ref: 'alpha', role: 'read_only' });
    expectError(platformRoutes.getProject, await get('/projects/secret', as(alice)), 404, ServiceMessages.projectNotFound);
    expectError(platformRoutes.getProject, await get('/projects/nope', as(alice)), 404, ServiceMessages.projectNotFound);
  });

  it('takes membership from the database, not from the roles an identity claims', async () => {
    const forged = userHeaders({ secret: 'owner' }, alice.id, alice.email);
    expectError(platformRoutes.getProject, await get('/projects/secret', forged), 404, ServiceMessages.projectNotFound);
  });

  it('validates the ref', async () => {
    expectError(platformRoutes.getProject, await get('/projects/Not_A_Ref', as(alice)), 400, /ref/);
  });

  it('requires a signed-in user', async () => {
    expectError(platformRoutes.listProjects, await get('/projects'), 401, ServiceMessages.signInRequired);
    expectError(platformRoutes.getProject, await get('/projects/alpha', serviceHeaders()), 401, ServiceMessages.signInRequired);
  });
});

describe('permissions', () => {
  it('gives an owner every permission', async () => {
    const body = expectContract<RouteReply<typeof platformRoutes.projectPermissions>>(
      platformRoutes.projectPermissions,
      await get('/projects/alpha/permissions', as(alice)),
    );
    expect(body.role).toBe('owner');
    expect(body.permissions).toEqual([...ROLE_PERMISSIONS.owner]);
    expect(body.permissions).toContain('tenant_sql_admin_write');
    expect(body.permissions).toContain('billing_invoices_read');
  });

  it('gives a read-only member only the read permissions', async () => {
    const body = expectContract<RouteReply<typeof platformRoutes.projectPermissions>>(
      platformRoutes.projectPermissions,
      await get('/projects/alpha/permissions', as(bob)),
    );
    expect(body.role).toBe('read_only');
    expect(body.permissions).toEqual([...ROLE_PERMISSIONS.read_only]);
    expect(body.permissions).toContain('tenant_sql_admin_read');
    expect(body.permissions).not.toContain('tenant_sql_admin_write');
    expect(body.permissions).not.toContain('storage_admin_write');
  });

  it('uses the role of the organization the project belongs to', async () => {
    const body = expectContract<RouteReply<typeof platformRoutes.projectPermissions>>(
      platformRoutes.projectPermissions,
      await get('/projects/gamma/permissions', as(alice)),
    );
    expect(body.role).toBe('read_only');
  });

  it('answers 404 to non-members', async () => {
    expectError(platformRoutes.projectPermissions, await get('/projects/alpha/permissions', as(carol)), 404, ServiceMessages.projectNotFound);
  });
});

describe('organizations', () => {
  it('lists the organizations of the user with their role', async () => {
    const body = expectContract<{ organizations: Organization[] }>(platformRoutes.listOrganizations, await get('/organizations', as(alice)));
    expect(body.organizations.map((o) => [o.slug, o.role])).toEqual([
      ['org-a', 'owner'],
      ['org-b', 'read_only'],
    ]);
    const none = expectContract<{ organizations: Organization[] }>(
      platformRoutes.listOrganizations,
      await get('/organizations', userHeaders({}, 'not-a-uuid')),
    );
    expect(none.organizations).toEqual([]);
  });
});

describe('resolveSession (internal)', () => {
  const resolve = (token: string, headers: Record<string, string> = serviceHeaders()) =>
    platform.app.inject({ method: 'POST', url: '/internal/sessions/resolve', payload: { token }, headers });

  it('maps a session token to the user and the role per project ref', async () => {
    const token = newSessionToken();
    await insertSession(platform.ctx.db, token, alice.id, new Date(Date.now() + 60_000));
    const body = expectContract<RouteReply<typeof platformRoutes.resolveSession>>(platformRoutes.resolveSession, await resolve(token));
    expect(body.user).toEqual({ id: alice.id, email: 'alice@example.com', name: 'Alice' });
    expect(body.projects).toEqual({ alpha: 'owner', beta: 'owner', gamma: 'read_only' });
  });

  it('answers 401 for an unknown or expired session', async () => {
    expectError(platformRoutes.resolveSession, await resolve('unknown-token'), 401, ServiceMessages.signInRequired);
    const token = newSessionToken();
    await insertSession(platform.ctx.db, token, bob.id, new Date(Date.now() + 60_000));
    expect((await resolve(token)).statusCode).toBe(200);
    await query(platform.databaseUrl, `update platform.sessions set expires_at = now() - interval '1 second' where user_id = $1`, [bob.id]);
    expectError(platformRoutes.resolveSession, await resolve(token), 401, ServiceMessages.signInRequired);
  });

  it('validates the body', async () => {
    expectError(platformRoutes.resolveSession, await resolve(''), 400, /token/);
  });
});

describe('internal routes', () => {
  const internal = Object.values(platformRoutes).filter((def) => def.access.kind === 'internal');
  const sample: Record<string, { url: string; payload?: Record<string, unknown> }> = {
    '/internal/sessions/resolve': { url: '/internal/sessions/resolve', payload: { token: 'x' } },
    '/internal/projects/:ref/connection': { url: '/internal/projects/alpha/connection' },
    '/internal/projects/:ref/storage-settings': { url: '/internal/projects/alpha/storage-settings' },
    '/internal/projects/:ref/data-api-settings': { url: '/internal/projects/alpha/data-api-settings' },
    '/internal/registry': { url: '/internal/registry' },
    '/internal/registry/versions': { url: '/internal/registry/versions', payload: {} },
    '/internal/registry/rollback': { url: '/internal/registry/rollback', payload: { name: 'x' } },
  };

  it('covers every internal route of the contract', () => {
    expect(internal.length).toBe(8);
    for (const def of internal) expect(sample[def.url]).toBeDefined();
  });

  it.each(internal.map((def) => [`${def.method} ${def.url}`, def] as const))('%s refuses user identities (403) and no identity (401)', async (_, def) => {
    const { url, payload } = sample[def.url]!;
    const asUser = await platform.app.inject({ method: def.method, url, payload, headers: userHeaders({ alpha: 'owner' }, alice.id) });
    expectError(def, asUser, 403, ServiceMessages.internalOnly);
    const anonymous = await platform.app.inject({ method: def.method, url, payload });
    expectError(def, anonymous, 401, ServiceMessages.internalOnly);
    const forged = await platform.app.inject({ method: def.method, url, payload, headers: { 'x-dash-identity': 'forged.token' } });
    expectError(def, forged, 401, ServiceMessages.internalOnly);
  });
});
