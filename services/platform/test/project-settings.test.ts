import pg from 'pg';
import {
  ADDON_CATALOG,
  AUTH_JWT_EXPIRY_DEFAULT_SECONDS,
  AUTH_SITE_URL_DEFAULT,
  platformRoutes,
  ProjectMessages,
  ProjectSettingsMessages,
  projectSettingsRoutes as routes,
  ServiceMessages,
  type ApiSettings,
  type AuthConfig,
  type DatabaseSettings,
  type OrgRole,
  type ProjectAddons,
  type ProjectApiKeys,
  type RouteDef,
  type RouteReply,
  type VaultSecret,
} from '@dash/contracts';
import { projectRoleName, verifyJwt, withDatabase } from '@dash/service-kit';
import { serviceHeaders, testServerUrl, userHeaders } from '@dash/service-kit/dist/testing';
import { createProject } from '../src/app';
import { scramSha256Verifier } from '../src/project-admin';
import { createOrg, createUser, expectContract, expectError, insertProjectRow, query, startPlatform, type TestPlatform } from './helpers';

// Project settings per role, on real Postgres: database connection details and the admin role's password
// (reset without a superuser, then really used to log in), the JWT secret behind the API keys, the auth
// settings, vault secrets (encrypted in the project database) and add-ons, each change with its audit event.

type Member = { id: string; email: string };
let platform: TestPlatform;
const users = {} as Record<OrgRole | 'stranger', Member>;
const FIRST_PASSWORD = 'First-Database-Pass-1';
/** A project with a real database (password, vault), and one with only a row (everything else). */
const REF = 'settings';
const ROW_ONLY = 'rows';
const FREE = 'free-plan';

beforeAll(async () => {
  platform = await startPlatform();
  for (const role of ['owner', 'administrator', 'developer', 'read_only', 'stranger'] as const) {
    users[role] = await createUser(platform.ctx, `${role}@example.com`);
  }
  const orgId = await createOrg(platform.ctx, 'acme', [
    [users.owner.id, 'owner'],
    [users.administrator.id, 'administrator'],
    [users.developer.id, 'developer'],
    [users.read_only.id, 'read_only'],
  ]);
  await createOrg(platform.ctx, 'elsewhere', [[users.stranger.id, 'owner']]);
  await createProject(platform.ctx, { ref: REF, name: 'Settings', orgId, databasePassword: FIRST_PASSWORD });
  await insertProjectRow(platform.ctx, ROW_ONLY, orgId, 'Rows');
  await insertProjectRow(platform.ctx, FREE, orgId, 'Free');
  await query(platform.databaseUrl, "update platform.projects set plan = 'pro' where ref in ($1, $2)", [REF, ROW_ONLY]);
}, 120_000);
afterAll(() => platform.close());

const MEMBERS = ['owner', 'administrator', 'developer', 'read_only'] as const;
/** The stranger claims to be an owner of every project: the platform checks membership itself. */
const headersOf = (who: OrgRole | 'stranger') =>
  userHeaders(Object.fromEntries([REF, ROW_ONLY, FREE].map((ref) => [ref, who === 'stranger' ? 'owner' : who])), users[who].id, users[who].email);
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, who: OrgRole | 'stranger', payload?: object) =>
  platform.app.inject({ method, url, headers: headersOf(who), ...(payload ? { payload } : {}) });

const auditOf = (action: string) =>
  query<{ actor_email: string; organization_slug: string; project_ref: string; target: string; details: Record<string, unknown> }>(
    platform.databaseUrl,
    'select actor_email, organization_slug, project_ref, target, details from platform.audit_events where action = $1 order by id',
    [action],
  );

/** Whether `password` logs in as the project's admin role (28P01 is the server refusing it). */
async function logsIn(settings: DatabaseSettings, password: string): Promise<boolean> {
  const client = new pg.Client({ host: settings.host, port: settings.port, database: settings.database, user: settings.user, password });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ me: string }>('select current_user as me');
    expect(rows[0]!.me).toBe(settings.user);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === '28P01') return false;
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

describe('routes', () => {
  it('registers every project settings route', () => {
    for (const def of Object.values(routes) as RouteDef[]) {
      expect({ route: `${def.method} ${def.url}`, registered: platform.app.hasRoute({ method: def.method, url: def.url }) }).toEqual({
        route: `${def.method} ${def.url}`,
        registered: true,
      });
    }
  });
});

describe('database settings', () => {
  const url = `/projects/${REF}/settings/database`;
  const reset = (who: OrgRole | 'stranger', password: string) => call('POST', `${url}/password`, who, { password });
  const settings = async () => expectContract<DatabaseSettings>(routes.databaseSettings, await call('GET', url, 'read_only'));

  it('shows every member how to connect as the admin role, never a password', async () => {
    const server = new URL(testServerUrl());
    const database = `${platform.prefix}${REF}`;
    for (const who of MEMBERS) {
      const response = await call('GET', url, who);
      expect(expectContract<DatabaseSettings>(routes.databaseSettings, response)).toEqual({
        host: server.hostname,
        port: Number(server.port),
        database,
        user: projectRoleName(database, 'admin'),
        connectionString: `postgresql://${projectRoleName(database, 'admin')}:[YOUR-PASSWORD]@${server.hostname}:${server.port}/${database}`,
        passwordResetAt: null,
      });
      expect(response.body).not.toContain(FIRST_PASSWORD);
      expect(response.body).not.toContain(`${server.username}:${server.password}@`);
    }
    expectError(routes.databaseSettings, await call('GET', url, 'stranger'), 404, ServiceMessages.projectNotFound);
  });

  it('lets only owners and administrators reset the password', async () => {
    for (const who of ['developer', 'read_only'] as const) {
      expectError(routes.resetDatabasePassword, await reset(who, 'Developer-Password-1'), 403, ServiceMessages.forbidden);
    }
    expectError(routes.resetDatabasePassword, await reset('stranger', 'Stranger-Password-1'), 404, ServiceMessages.projectNotFound);
    expect(await logsIn(await settings(), FIRST_PASSWORD)).toBe(true);
    expect(await auditOf('project.database_password_reset')).toEqual([]);
  });

  it('resets it without a superuser: the new password logs in, the old one is refused, services get the new one', async () => {
    const before = await settings();
    // The server checks passwords at all (a trust server would make the rest of this test meaningless).
    expect(await logsIn(before, 'not-the-password')).toBe(false);

    for (const [who, password] of [
      ['owner', 'Owner-Chose-This-1'],
      ['administrator', 'Admin chose this one!'],
    ] as const) {
      const after = expectContract<DatabaseSettings>(routes.resetDatabasePassword, await reset(who, password));
      expect(after.passwordResetAt).not.toBeNull();
      expect(after).toEqual({ ...before, passwordResetAt: after.passwordResetAt });
      expect(await logsIn(after, password)).toBe(true);
    }
    expect(await logsIn(before, FIRST_PASSWORD)).toBe(false);
    expect(await logsIn(before, 'Owner-Chose-This-1')).toBe(false);

    // The services' connection string carries the new password; the stored copy is encrypted.
    const connection = expectContract<RouteReply<typeof platformRoutes.projectConnection>>(
      platformRoutes.projectConnection,
      await platform.app.inject({ method: 'GET', url: `/internal/projects/${REF}/connection`, headers: serviceHeaders() }),
    );
    expect(decodeURIComponent(new URL(connection.connectionString).password)).toBe('Admin chose this one!');
    const [stored] = await query<{ role_passwords_encrypted: string }>(platform.databaseUrl, 'select role_passwords_encrypted from platform.projects where ref = $1', [REF]);
    expect(stored!.role_passwords_encrypted).not.toContain('Admin chose');

    // Postgres got a SCRAM verifier, never the password itself.
    const [authid] = await query<{ rolpassword: string }>(testServerUrl(), 'select rolpassword from pg_authid where rolname = $1', [before.user]);
    expect(authid!.rolpassword).toMatch(/^SCRAM-SHA-256\$4096:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);

    expect(await auditOf('project.database_password_reset')).toEqual([
      { actor_email: users.owner.email, organization_slug: 'acme', project_ref: REF, target: 'Settings', details: {} },
      { actor_email: users.administrator.email, organization_slug: 'acme', project_ref: REF, target: 'Settings', details: {} },
    ]);
  });

  it('keeps the stored password and records nothing when Postgres refuses the change', async () => {
    const before = await settings();
    const [row] = await query<{ role_passwords_encrypted: string }>(platform.databaseUrl, 'select role_passwords_encrypted from platform.projects where ref = $1', [REF]);
    // Someone changed the role's password behind the platform's back: the platform cannot log in to reset it.
    await query(testServerUrl(), `alter role "${before.user}" password 'Changed-Behind-Its-Back-1'`);
    try {
      expectError(routes.resetDatabasePassword, await reset('owner', 'Never-Stored-Pass-1'), 503);
      const [after] = await query<{ role_passwords_encrypted: string }>(platform.databaseUrl, 'select role_passwords_encrypted from platform.projects where ref = $1', [REF]);
      expect(after).toEqual(row);
      expect(await auditOf('project.database_password_reset')).toHaveLength(2);
    } finally {
      await query(testServerUrl(), `alter role "${before.user}" password 'Admin chose this one!'`);
    }
  });

  it('explains what a password needs', async () => {
    expectError(routes.resetDatabasePassword, await reset('owner', 'Short-1'), 400, /fewer than 12 characters/);
    expectError(routes.resetDatabasePassword, await reset('owner', 'Pässwörd-12345678'), 400, ProjectSettingsMessages.passwordCharacters);
    expectError(routes.resetDatabasePassword, await reset('owner', 'x'.repeat(129)), 400, /more than 128 characters/);
    expectError(routes.resetDatabasePassword, await reset('owner', 'only-lowercase-and-dashes'), 400, ProjectMessages.passwordTooSimple);
    expectError(routes.resetDatabasePassword, await call('POST', `${url}/password`, 'owner', { password: 'Long-Enough-Pass-1', role: 'x' }), 400);
  });

  it('writes verifiers Postgres accepts for any printable password', async () => {
    const verifier = scramSha256Verifier(`quote ' backslash \\ dollar $$ percent %`, Buffer.alloc(16, 7));
    expect(verifier).toMatch(/^SCRAM-SHA-256\$4096:BwcHBwcHBwcHBwcHBwcHBw==\$/);
    // Two verifiers of one password differ by their random salt.
    expect(scramSha256Verifier('same-password-here')).not.toBe(scramSha256Verifier('same-password-here'));
  });
});

describe('API settings and JWT secret rotation', () => {
  const settingsUrl = `/projects/${ROW_ONLY}/settings/api`;
  const keys = async () => expectContract<ProjectApiKeys>(platformRoutes.projectApiKeys, await call('GET', `/projects/${ROW_ONLY}/api-keys`, 'developer'));
  const secret = async () =>
    expectContract<{ jwtSecret: string }>(
      platformRoutes.projectStorageSettings,
      await platform.app.inject({ method: 'GET', url: `/internal/projects/${ROW_ONLY}/storage-settings`, headers: serviceHeaders() }),
    ).jwtSecret;

  it('shows every member the project URL, the API beside it', async () => {
    for (const who of MEMBERS) {
      const body = expectContract<ApiSettings>(routes.apiSettings, await call('GET', settingsUrl, who));
      expect(body).toEqual({ projectUrl: `http://localhost:80/p/${ROW_ONLY}`, jwtSecretRotatedAt: null });
    }
    expect((await keys()).storageUrl).toBe(`http://localhost:80/p/${ROW_ONLY}/storage/v1`);
    expectError(platformRoutes.projectApiKeys, await call('GET', `/projects/${ROW_ONLY}/api-keys`, 'read_only'), 403, ServiceMessages.forbidden);
  });

  it('lets only owners and administrators rotate the secret', async () => {
    const before = await keys();
    for (const who of ['developer', 'read_only'] as const) {
      expectError(routes.rotateJwtSecret, await call('POST', `${settingsUrl}/jwt-secret`, who), 403, ServiceMessages.forbidden);
    }
    expectError(routes.rotateJwtSecret, await call('POST', `${settingsUrl}/jwt-secret`, 'stranger'), 404, ServiceMessages.projectNotFound);
    expect(await keys()).toEqual(before);
    expect(await auditOf('project.jwt_secret_rotated')).toEqual([]);
  });

  it('rotates it: the old keys no longer verify, the new ones do', async () => {
    const old = await keys();
    expect(verifyJwt(await secret(), old.anon)).not.toHaveProperty('error');
    for (const who of ['owner', 'administrator'] as const) {
      const before = await keys();
      const body = expectContract<ApiSettings>(routes.rotateJwtSecret, await call('POST', `${settingsUrl}/jwt-secret`, who));
      expect(body.jwtSecretRotatedAt).not.toBeNull();
      const after = await keys();
      expect(after.anon).not.toBe(before.anon);
      expect(after.service_role).not.toBe(before.service_role);
      const current = await secret();
      for (const key of [before.anon, before.service_role, old.anon]) expect(verifyJwt(current, key)).toHaveProperty('error');
      expect(verifyJwt(current, after.anon)).toMatchObject({ claims: { role: 'anon', ref: ROW_ONLY } });
      expect(verifyJwt(current, after.service_role)).toMatchObject({ claims: { role: 'service_role' } });
      expect(expectContract<ApiSettings>(routes.apiSettings, await call('GET', settingsUrl, 'read_only')).jwtSecretRotatedAt).toBe(body.jwtSecretRotatedAt);
    }
    expect(await auditOf('project.jwt_secret_rotated')).toEqual([
      { actor_email: users.owner.email, organization_slug: 'acme', project_ref: ROW_ONLY, target: 'Rows', details: {} },
      { actor_email: users.administrator.email, organization_slug: 'acme', project_ref: ROW_ONLY, target: 'Rows', details: {} },
    ]);
  });
});

describe('auth settings', () => {
  const url = `/projects/${ROW_ONLY}/config/auth`;
  const update = (who: OrgRole | 'stranger', payload: object) => call('PATCH', url, who, payload);

  it('has a site URL and an hour-long JWT expiry until changed', async () => {
    expect(expectContract<AuthConfig>(platformRoutes.getAuthConfig, await call('GET', url, 'read_only'))).toEqual({
      external_anonymous_users_enabled: false,
      site_url: AUTH_SITE_URL_DEFAULT,
      jwt_expiry: AUTH_JWT_EXPIRY_DEFAULT_SECONDS,
    });
  });

  it('lets members who may change the database save them, and records who did', async () => {
    expectError(platformRoutes.updateAuthConfig, await update('read_only', { site_url: 'https://viewer.example.com' }), 403, ServiceMessages.forbidden);
    expectError(platformRoutes.updateAuthConfig, await update('stranger', { site_url: 'https://stranger.example.com' }), 404, ServiceMessages.projectNotFound);
    const saves: Array<[OrgRole, object, AuthConfig]> = [
      ['developer', { site_url: 'https://app.example.com', jwt_expiry: 7200 }, { external_anonymous_users_enabled: false, site_url: 'https://app.example.com', jwt_expiry: 7200 }],
      ['administrator', { jwt_expiry: 604800 }, { external_anonymous_users_enabled: false, site_url: 'https://app.example.com', jwt_expiry: 604800 }],
      ['owner', { external_anonymous_users_enabled: true, site_url: 'http://localhost:5173/app' }, { external_anonymous_users_enabled: true, site_url: 'http://localhost:5173/app', jwt_expiry: 604800 }],
    ];
    for (const [who, payload, expected] of saves) {
      expect(expectContract<AuthConfig>(platformRoutes.updateAuthConfig, await update(who, payload))).toEqual(expected);
      expect(expectContract<AuthConfig>(platformRoutes.getAuthConfig, await call('GET', url, 'read_only'))).toEqual(expected);
    }
    expect(await auditOf('project.auth_config_updated')).toEqual(
      saves.map(([who, payload]) => ({ actor_email: users[who].email, organization_slug: 'acme', project_ref: ROW_ONLY, target: 'Rows', details: payload })),
    );
  });

  it('refuses a site URL that is not http(s) and an expiry out of range', async () => {
    for (const site_url of ['ftp://files.example.com', 'javascript:alert(1)', 'https://', 'app.example.com', `https://${'a'.repeat(2048)}.com`]) {
      expectError(platformRoutes.updateAuthConfig, await update('owner', { site_url }), 400);
    }
    for (const jwt_expiry of [29, 604801, 3600.5]) expectError(platformRoutes.updateAuthConfig, await update('owner', { jwt_expiry }), 400);
    expect(expectContract<AuthConfig>(platformRoutes.getAuthConfig, await call('GET', url, 'owner')).jwt_expiry).toBe(604800);
  });
});

describe('vault secrets', () => {
  const url = `/projects/${REF}/vault/secrets`;
  const list = async (who: OrgRole = 'read_only') => expectContract<{ secrets: VaultSecret[] }>(routes.listVaultSecrets, await call('GET', url, who)).secrets;
  const create = (who: OrgRole | 'stranger', body: object) => call('POST', url, who, body);
  const reveal = (who: OrgRole | 'stranger', id: string) => call('POST', `${url}/${id}/reveal`, who);
  const remove = (who: OrgRole | 'stranger', id: string) => call('DELETE', `${url}/${id}`, who);
  /** The project database as its owner sees it. */
  const projectDatabase = () => withDatabase(testServerUrl(), `${platform.prefix}${REF}`);
  const stored = () => query<{ name: string; secret: string }>(projectDatabase(), 'select name, secret from vault.secrets order by name');

  it('lists none before the first secret, for every member', async () => {
    for (const who of MEMBERS) expect(await list(who)).toEqual([]);
    expectError(routes.listVaultSecrets, await call('GET', url, 'stranger'), 404, ServiceMessages.projectNotFound);
  });

  it('lets members who may change the database create secrets, stored encrypted in the project database', async () => {
    expectError(routes.createVaultSecret, await create('read_only', { name: 'viewer', secret: 'v' }), 403, ServiceMessages.forbidden);
    expectError(routes.createVaultSecret, await create('stranger', { name: 'stranger', secret: 's' }), 404, ServiceMessages.projectNotFound);
    const values: Record<string, string> = { stripe_key: 'sk_live_0123456789', mail_password: 'hunter2 hunter2', webhook_token: 'whk-42' };
    const who: Record<string, OrgRole> = { stripe_key: 'developer', mail_password: 'owner', webhook_token: 'administrator' };
    for (const name of Object.keys(values)) {
      const created = expectContract<VaultSecret>(routes.createVaultSecret, await create(who[name]!, { name, secret: values[name], description: `The ${name}` }), 201);
      expect(created).toMatchObject({ name, description: `The ${name}` });
    }
    expect((await list()).map((s) => s.name)).toEqual(['mail_password', 'stripe_key', 'webhook_token']);
    const rows = await stored();
    expect(rows.map((r) => r.name)).toEqual(['mail_password', 'stripe_key', 'webhook_token']);
    for (const row of rows) {
      expect(row.secret).toMatch(/^v1:/);
      expect(row.secret).not.toContain(values[row.name]);
    }
    expect((await auditOf('project.secret_created')).map((e) => [e.actor_email, e.target])).toEqual([
      [users.developer.email, 'stripe_key'],
      [users.owner.email, 'mail_password'],
      [users.administrator.email, 'webhook_token'],
    ]);
  });

  it('reveals a value only on an explicit call by a member who may change the database', async () => {
    const [stripe] = (await list()).filter((s) => s.name === 'stripe_key');
    expectError(routes.revealVaultSecret, await reveal('read_only', stripe!.id), 403, ServiceMessages.forbidden);
    expectError(routes.revealVaultSecret, await reveal('stranger', stripe!.id), 404, ServiceMessages.projectNotFound);
    for (const who of ['owner', 'administrator', 'developer'] as const) {
      expect(expectContract(routes.revealVaultSecret, await reveal(who, stripe!.id))).toEqual({ id: stripe!.id, name: 'stripe_key', secret: 'sk_live_0123456789' });
    }
    expect((await auditOf('project.secret_revealed')).map((e) => e.actor_email)).toEqual([users.owner.email, users.administrator.email, users.developer.email]);
    expectError(routes.revealVaultSecret, await reveal('owner', '00000000-0000-4000-8000-000000000000'), 404, ProjectSettingsMessages.secretNotFound);
    expectError(routes.revealVaultSecret, await reveal('owner', 'not-a-uuid'), 400);
  });

  it('binds each value to its row: a ciphertext copied onto another secret does not decrypt as that one', async () => {
    const secrets = await list();
    const mail = secrets.find((s) => s.name === 'mail_password')!;
    await query(projectDatabase(), `update vault.secrets set secret = (select secret from vault.secrets where name = 'stripe_key') where name = 'webhook_token'`);
    const webhook = secrets.find((s) => s.name === 'webhook_token')!;
    const response = await reveal('owner', webhook.id);
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('sk_live');
    expect(expectContract<{ secret: string }>(routes.revealVaultSecret, await reveal('owner', mail.id)).secret).toBe('hunter2 hunter2');
  });

  it('refuses a taken or blank name and an empty value', async () => {
    expectError(routes.createVaultSecret, await create('owner', { name: 'stripe_key', secret: 'again' }), 409, ProjectSettingsMessages.secretNameTaken('stripe_key'));
    expectError(routes.createVaultSecret, await create('owner', { name: '   ', secret: 'x' }), 400, ProjectSettingsMessages.secretNameRequired);
    expectError(routes.createVaultSecret, await create('owner', { name: ' padded', secret: 'x' }), 400, ProjectSettingsMessages.secretNameWhitespace);
    expectError(routes.createVaultSecret, await create('owner', { name: 'empty', secret: '' }), 400);
    expectError(routes.createVaultSecret, await create('owner', { name: 'extra', secret: 'x', owner: 'me' }), 400);
    expect(await list()).toHaveLength(3);
  });

  it('deletes secrets for members who may change the database', async () => {
    const stripe = (await list()).find((s) => s.name === 'stripe_key')!;
    expectError(routes.deleteVaultSecret, await remove('read_only', stripe.id), 403, ServiceMessages.forbidden);
    expectError(routes.deleteVaultSecret, await remove('stranger', stripe.id), 404, ServiceMessages.projectNotFound);
    expect(expectContract<VaultSecret>(routes.deleteVaultSecret, await remove('developer', stripe.id))).toEqual(stripe);
    expectError(routes.revealVaultSecret, await reveal('owner', stripe.id), 404, ProjectSettingsMessages.secretNotFound);
    expectError(routes.deleteVaultSecret, await remove('owner', stripe.id), 404, ProjectSettingsMessages.secretNotFound);
    expect((await list()).map((s) => s.name)).toEqual(['mail_password', 'webhook_token']);
    expect((await stored()).map((r) => r.name)).toEqual(['mail_password', 'webhook_token']);
    expect((await auditOf('project.secret_deleted')).map((e) => [e.actor_email, e.target])).toEqual([[users.developer.email, 'stripe_key']]);
  });
});

describe('add-ons', () => {
  const url = (ref = ROW_ONLY) => `/projects/${ref}/billing/addons`;
  const read = async (who: OrgRole = 'read_only', ref = ROW_ONLY) => expectContract<ProjectAddons>(routes.listAddons, await call('GET', url(ref), who));
  const select = (who: OrgRole | 'stranger', addon_type: string, addon_variant: string, ref = ROW_ONLY) =>
    call('POST', url(ref), who, { addon_type, addon_variant });
  const variant = (id: string) => ADDON_CATALOG.flatMap((a) => a.variants).find((v) => v.identifier === id)!;

  it('lists what can be added and what is selected, for every member', async () => {
    for (const who of MEMBERS) {
      expect(await read(who)).toEqual({
        ref: ROW_ONLY,
        selected_addons: [],
        available_addons: ADDON_CATALOG.map(({ type, name, description, variants }) => ({ type, name, description, variants })),
        isFreeTier: false,
      });
    }
    expect((await read('read_only', FREE)).isFreeTier).toBe(true);
  });

  it('lets only owners and administrators choose add-ons, one variant per type', async () => {
    for (const who of ['developer', 'read_only'] as const) expectError(routes.selectAddon, await select(who, 'pitr', 'pitr_7'), 403, ServiceMessages.forbidden);
    expectError(routes.selectAddon, await select('stranger', 'pitr', 'pitr_7'), 404, ServiceMessages.projectNotFound);
    expect((await read()).selected_addons).toEqual([]);

    expect(expectContract<ProjectAddons>(routes.selectAddon, await select('owner', 'pitr', 'pitr_7')).selected_addons).toEqual([{ type: 'pitr', variant: variant('pitr_7') }]);
    expectContract(routes.selectAddon, await select('administrator', 'ipv4', 'ipv4_default'));
    const replaced = expectContract<ProjectAddons>(routes.selectAddon, await select('administrator', 'pitr', 'pitr_28'));
    expect(replaced.selected_addons).toEqual([
      { type: 'ipv4', variant: variant('ipv4_default') },
      { type: 'pitr', variant: variant('pitr_28') },
    ]);
    expect((await read()).selected_addons).toEqual(replaced.selected_addons);
    expect(await auditOf('project.addon_selected')).toEqual([
      { actor_email: users.owner.email, organization_slug: 'acme', project_ref: ROW_ONLY, target: 'Point in time recovery: 7 days', details: { type: 'pitr', variant: 'pitr_7', previous: null } },
      { actor_email: users.administrator.email, organization_slug: 'acme', project_ref: ROW_ONLY, target: 'Dedicated IPv4 address: Dedicated IPv4 address', details: { type: 'ipv4', variant: 'ipv4_default', previous: null } },
      { actor_email: users.administrator.email, organization_slug: 'acme', project_ref: ROW_ONLY, target: 'Point in time recovery: 28 days', details: { type: 'pitr', variant: 'pitr_28', previous: 'pitr_7' } },
    ]);
  });

  it('refuses variants of another type, unknown types and the free plan', async () => {
    expectError(routes.selectAddon, await select('owner', 'pitr', 'ipv4_default'), 400, ProjectSettingsMessages.addonUnknownVariant('ipv4_default', 'pitr'));
    expectError(routes.selectAddon, await select('owner', 'compute', 'ci_small'), 400);
    expectError(routes.selectAddon, await select('owner', 'pitr', 'pitr_7', FREE), 400, ProjectSettingsMessages.addonNeedsPaidPlan);
    expect((await read('owner', FREE)).selected_addons).toEqual([]);
  });

  it('lets only owners and administrators remove an add-on', async () => {
    expectError(routes.removeAddon, await call('DELETE', `${url()}/pitr_28`, 'developer'), 403, ServiceMessages.forbidden);
    expectError(routes.removeAddon, await call('DELETE', `${url()}/pitr_28`, 'stranger'), 404, ServiceMessages.projectNotFound);
    const after = expectContract<ProjectAddons>(routes.removeAddon, await call('DELETE', `${url()}/pitr_28`, 'owner'));
    expect(after.selected_addons).toEqual([{ type: 'ipv4', variant: variant('ipv4_default') }]);
    expectError(routes.removeAddon, await call('DELETE', `${url()}/pitr_28`, 'administrator'), 404, ProjectSettingsMessages.addonNotSelected('pitr_28'));
    expect((await auditOf('project.addon_removed')).map((e) => [e.actor_email, e.target])).toEqual([[users.owner.email, 'Point in time recovery: 28 days']]);
  });
});
