import {
  AUTH_JWT_EXPIRY_DEFAULT_SECONDS,
  AUTH_SITE_URL_DEFAULT,
  platformRoutes,
  ServiceMessages,
  type AuthConfig,
  type OrgRole,
} from '@dash/contracts';
import { serviceHeaders, userHeaders } from '@dash/service-kit/dist/testing';
import { createOrg, createUser, expectContract, expectError, insertProjectRow, query, startPlatform, type TestPlatform } from './helpers';

let platform: TestPlatform;
/** The settings a project has until they are changed, besides anonymous sign-ins. */
const DEFAULTS = { site_url: AUTH_SITE_URL_DEFAULT, jwt_expiry: AUTH_JWT_EXPIRY_DEFAULT_SECONDS };
type Member = { id: string; email: string };
let owner: Member; // owner of org A (projects alpha, beta)
let developer: Member; // developer in org A
let viewer: Member; // read-only in org A
let stranger: Member; // owner of org B (project other)

beforeAll(async () => {
  platform = await startPlatform();
  owner = await createUser(platform.ctx, 'owner@example.com');
  developer = await createUser(platform.ctx, 'dev@example.com');
  viewer = await createUser(platform.ctx, 'viewer@example.com');
  stranger = await createUser(platform.ctx, 'stranger@example.com');
  const orgA = await createOrg(platform.ctx, 'org-a', [
    [owner.id, 'owner'],
    [developer.id, 'developer'],
    [viewer.id, 'read_only'],
  ]);
  const orgB = await createOrg(platform.ctx, 'org-b', [[stranger.id, 'owner']]);
  await insertProjectRow(platform.ctx, 'alpha', orgA);
  await insertProjectRow(platform.ctx, 'beta', orgA);
  await insertProjectRow(platform.ctx, 'other', orgB);
});
afterAll(() => platform.close());

/** Headers as the gateway signs them: the member's role in each project of their organizations. */
const as = (user: Member, role: OrgRole, refs = ['alpha', 'beta']) =>
  userHeaders(Object.fromEntries(refs.map((ref) => [ref, role])), user.id, user.email);

const read = (ref: string, headers: Record<string, string>) =>
  platform.app.inject({ method: 'GET', url: `/projects/${ref}/config/auth`, headers });
const write = (ref: string, headers: Record<string, string>, payload: unknown) =>
  platform.app.inject({ method: 'PATCH', url: `/projects/${ref}/config/auth`, headers, payload: payload as object });

describe('project auth configuration', () => {
  it('has anonymous sign-ins off until changed, for every member', async () => {
    for (const [user, role] of [
      [owner, 'owner'],
      [developer, 'developer'],
      [viewer, 'read_only'],
    ] as const) {
      const body = expectContract<AuthConfig>(platformRoutes.getAuthConfig, await read('alpha', as(user, role)));
      expect(body).toEqual({ ...DEFAULTS, external_anonymous_users_enabled: false });
    }
  });

  it('turns the external anonymous users flag on and off, stored per project', async () => {
    const on = expectContract<AuthConfig>(platformRoutes.updateAuthConfig, await write('alpha', as(developer, 'developer'), { external_anonymous_users_enabled: true }));
    expect(on).toEqual({ ...DEFAULTS, external_anonymous_users_enabled: true });
    expect(expectContract<AuthConfig>(platformRoutes.getAuthConfig, await read('alpha', as(viewer, 'read_only')))).toEqual({
      ...DEFAULTS,
      external_anonymous_users_enabled: true,
    });
    // Another project keeps its own configuration.
    expect(expectContract<AuthConfig>(platformRoutes.getAuthConfig, await read('beta', as(owner, 'owner')))).toEqual({
      ...DEFAULTS,
      external_anonymous_users_enabled: false,
    });
    const rows = await query<{ ref: string; external_anonymous_users_enabled: boolean }>(
      platform.databaseUrl,
      `select p.ref, c.external_anonymous_users_enabled
       from platform.project_auth_config c join platform.projects p on p.id = c.project_id order by p.ref`,
    );
    expect(rows).toEqual([{ ref: 'alpha', external_anonymous_users_enabled: true }]);

    const off = expectContract<AuthConfig>(platformRoutes.updateAuthConfig, await write('alpha', as(owner, 'owner'), { external_anonymous_users_enabled: false }));
    expect(off).toEqual({ ...DEFAULTS, external_anonymous_users_enabled: false });
    expect(expectContract<AuthConfig>(platformRoutes.getAuthConfig, await read('alpha', as(owner, 'owner')))).toEqual(off);
  });

  it('refuses read-only members a change (403) and leaves the flag as it was', async () => {
    expectError(platformRoutes.updateAuthConfig, await write('beta', as(viewer, 'read_only'), { external_anonymous_users_enabled: true }), 403, ServiceMessages.forbidden);
    expect(expectContract<AuthConfig>(platformRoutes.getAuthConfig, await read('beta', as(owner, 'owner')))).toEqual({
      ...DEFAULTS,
      external_anonymous_users_enabled: false,
    });
  });

  it('takes the role from the database: a claimed owner who is read-only gets 403', async () => {
    expectError(platformRoutes.updateAuthConfig, await write('beta', as(viewer, 'owner'), { external_anonymous_users_enabled: true }), 403, ServiceMessages.forbidden);
  });

  it('answers 404 to non-members, even with a forged claim, and to unknown projects', async () => {
    expectError(platformRoutes.getAuthConfig, await read('alpha', as(stranger, 'owner', ['other'])), 404, ServiceMessages.projectNotFound);
    expectError(platformRoutes.getAuthConfig, await read('alpha', as(stranger, 'owner')), 404, ServiceMessages.projectNotFound);
    const forged = await write('alpha', as(stranger, 'owner'), { external_anonymous_users_enabled: true });
    expectError(platformRoutes.updateAuthConfig, forged, 404, ServiceMessages.projectNotFound);
    expectError(platformRoutes.getAuthConfig, await read('nope', as(owner, 'owner', ['nope'])), 404, ServiceMessages.projectNotFound);
  });

  it('needs a signed-in user', async () => {
    expectError(platformRoutes.getAuthConfig, await read('alpha', {}), 401, ServiceMessages.signInRequired);
    expectError(platformRoutes.getAuthConfig, await read('alpha', serviceHeaders()), 401, ServiceMessages.signInRequired);
  });

  it('validates the change', async () => {
    const owners = as(owner, 'owner');
    expectError(platformRoutes.updateAuthConfig, await write('alpha', owners, {}), 400);
    expectError(platformRoutes.updateAuthConfig, await write('alpha', owners, { external_anonymous_users_enabled: 'yes' }), 400, /boolean/);
    expectError(platformRoutes.updateAuthConfig, await write('alpha', owners, { external_anonymous_users_enabled: true, other: 1 }), 400);
  });

  it('is deleted with its project', async () => {
    const [org] = await query<{ id: number }>(platform.databaseUrl, "select id from platform.organizations where slug = 'org-a'");
    const { id } = await insertProjectRow(platform.ctx, 'gone', org!.id);
    expectContract(platformRoutes.updateAuthConfig, await write('gone', as(owner, 'owner', ['gone']), { external_anonymous_users_enabled: true }));
    await query(platform.databaseUrl, 'delete from platform.projects where id = $1', [id]);
    expect(await query(platform.databaseUrl, 'select 1 from platform.project_auth_config where project_id = $1', [id])).toEqual([]);
  });
});
