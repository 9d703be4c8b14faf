import {
  AUTH_HOSTED_CONFIG_DEFAULTS,
  AuthConfigMessages,
  authHostedConfigRoutes,
  authSettingsRoutes,
  ServiceMessages,
  type AuthHostedConfig,
  type ProjectAuthSettings,
  type OrgRole,
} from '@dash/contracts';
import { serviceHeaders, userHeaders } from '@dash/service-kit/dist/testing';
import { createOrg, createUser, expectContract, expectError, insertProjectRow, query, startPlatform, type TestPlatform } from './helpers';

/* The hosted auth settings: defaults, partial saves kept per project, rules across fields, roles. */

let platform: TestPlatform;
type Member = { id: string; email: string };
let owner: Member;
let viewer: Member;

beforeAll(async () => {
  platform = await startPlatform();
  owner = await createUser(platform.ctx, 'hosted-owner@example.com');
  viewer = await createUser(platform.ctx, 'hosted-viewer@example.com');
  const org = await createOrg(platform.ctx, 'org-hosted', [
    [owner.id, 'owner'],
    [viewer.id, 'read_only'],
  ]);
  await insertProjectRow(platform.ctx, 'hosted-a', org);
  await insertProjectRow(platform.ctx, 'hosted-b', org);
});
afterAll(() => platform.close());

const as = (user: Member, role: OrgRole) => userHeaders({ 'hosted-a': role, 'hosted-b': role }, user.id, user.email);
const read = (ref: string, user = viewer, role: OrgRole = 'read_only') =>
  platform.app.inject({ method: 'GET', url: `/projects/${ref}/config/auth/hosted`, headers: as(user, role) });
const write = (ref: string, payload: unknown, user = owner, role: OrgRole = 'owner') =>
  platform.app.inject({ method: 'PATCH', url: `/projects/${ref}/config/auth/hosted`, headers: as(user, role), payload: payload as object });

describe('hosted auth settings', () => {
  it('has the defaults until changed', async () => {
    const config = expectContract<AuthHostedConfig>(authHostedConfigRoutes.getAuthHostedConfig, await read('hosted-a'));
    expect(config).toEqual(AUTH_HOSTED_CONFIG_DEFAULTS);
    expect(config.external_email_enabled).toBe(true);
    expect(config.rate_limit_email_sent).toBe(2);
  });

  it('saves what is given, keeps the rest, per project, and stores only what differs from the defaults', async () => {
    const hostile = `<script>alert('x')</script> {{ .ConfirmationURL }} '; drop table platform.projects; --`;
    const saved = expectContract<AuthHostedConfig>(
      authHostedConfigRoutes.updateAuthHostedConfig,
      await write('hosted-a', { external_github_enabled: true, external_github_client_id: 'gh-123', rate_limit_email_sent: 60, mailer_templates_recovery_content: hostile }),
    );
    expect(saved).toMatchObject({ external_github_enabled: true, external_github_client_id: 'gh-123', rate_limit_email_sent: 60, mailer_templates_recovery_content: hostile });
    const after = expectContract<AuthHostedConfig>(authHostedConfigRoutes.updateAuthHostedConfig, await write('hosted-a', { uri_allow_list: ['https://app.example.com/**', 'myapp://callback'] }));
    expect(after).toMatchObject({ external_github_enabled: true, rate_limit_email_sent: 60, uri_allow_list: ['https://app.example.com/**', 'myapp://callback'] });
    expect(expectContract<AuthHostedConfig>(authHostedConfigRoutes.getAuthHostedConfig, await read('hosted-a'))).toEqual(after);
    expect(expectContract<AuthHostedConfig>(authHostedConfigRoutes.getAuthHostedConfig, await read('hosted-b'))).toEqual(AUTH_HOSTED_CONFIG_DEFAULTS);
    const [row] = await query<{ keys: string[] }>(
      platform.databaseUrl,
      `select array(select jsonb_object_keys(c.hosted) order by 1) as keys from platform.project_auth_config c join platform.projects p on p.id = c.project_id where p.ref = 'hosted-a'`,
    );
    expect(row!.keys).toEqual(['external_github_client_id', 'external_github_enabled', 'mailer_templates_recovery_content', 'rate_limit_email_sent', 'uri_allow_list']);
  });

  it('refuses rules broken across fields and bad values with a 400 and a clear message', async () => {
    expectError(authHostedConfigRoutes.updateAuthHostedConfig, await write('hosted-b', { external_google_enabled: true }), 400, AuthConfigMessages.clientIdRequired('Google'));
    expectError(authHostedConfigRoutes.updateAuthHostedConfig, await write('hosted-b', { hook_send_email_enabled: true }), 400, AuthConfigMessages.hookUriRequired('Send Email'));
    expect((await write('hosted-b', { hook_send_email_uri: 'http://insecure.example.com' })).statusCode).toBe(400);
    expect((await write('hosted-b', { hook_send_email_uri: 'pg-functions://postgres/public/x; drop' })).statusCode).toBe(400);
    expect((await write('hosted-b', { rate_limit_sms_sent: 0 })).statusCode).toBe(400);
    expect((await write('hosted-b', { uri_allow_list: ['not a url'] })).statusCode).toBe(400);
    expect((await write('hosted-b', { mailer_subjects_invite: '' })).statusCode).toBe(400);
    expect((await write('hosted-b', { unknown_key: true })).statusCode).toBe(400);
    expect((await write('hosted-b', {})).statusCode).toBe(400);
    // A hook with its URI saves; then it may be turned on.
    const hooked = expectContract<AuthHostedConfig>(
      authHostedConfigRoutes.updateAuthHostedConfig,
      await write('hosted-b', { hook_custom_access_token_uri: 'pg-functions://postgres/public/custom_claims', hook_custom_access_token_enabled: true }),
    );
    expect(hooked.hook_custom_access_token_enabled).toBe(true);
    // Clearing the URI of an enabled hook breaks the rule.
    expectError(authHostedConfigRoutes.updateAuthHostedConfig, await write('hosted-b', { hook_custom_access_token_uri: '' }), 400, AuthConfigMessages.hookUriRequired('Customize Access Token (JWT) Claims'));
  });

  it('lets read-only members read and not write', async () => {
    expect((await read('hosted-a', viewer, 'read_only')).statusCode).toBe(200);
    expect((await write('hosted-a', { mailer_autoconfirm: true }, viewer, 'read_only')).statusCode).toBe(403);
    expect((await read('hosted-a', owner, 'owner')).json().mailer_autoconfirm).toBe(false);
  });

  it('reach the auth service with the JWT secret and the rest of Authentication (services only)', async () => {
    await write('hosted-b', { disable_signup: true, hook_custom_access_token_enabled: true, hook_custom_access_token_uri: 'https://hooks.example.com/claims', hook_custom_access_token_secrets: `v1,whsec_${'a'.repeat(32)}` });
    const internal = await platform.app.inject({ method: 'GET', url: '/internal/projects/hosted-b/auth-settings', headers: serviceHeaders() });
    const body = expectContract<ProjectAuthSettings>(authSettingsRoutes.projectAuthSettings, internal);
    expect(body.hosted).toMatchObject({ disable_signup: true, hook_custom_access_token_enabled: true, password_min_length: 6, mailer_otp_exp: 3600 });
    expect(body.config).toMatchObject({ site_url: expect.any(String), jwt_expiry: 3600 });
    expect(body.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect((await platform.app.inject({ method: 'GET', url: '/internal/projects/hosted-b/auth-settings', headers: as(owner, 'owner') })).statusCode).toBe(403);
    expectError(authSettingsRoutes.projectAuthSettings, await platform.app.inject({ method: 'GET', url: '/internal/projects/nope/auth-settings', headers: serviceHeaders() }), 404, ServiceMessages.projectNotFound);
  });

  it('refuse an HTTPS hook without a signing secret', async () => {
    const response = await write('hosted-a', { hook_send_email_enabled: true, hook_send_email_uri: 'https://hooks.example.com/mail' });
    expectError(authHostedConfigRoutes.updateAuthHostedConfig, response, 400, AuthConfigMessages.hookSecretRequired('Send Email'));
  });
});
