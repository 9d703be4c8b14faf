import {
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_VISIBLE_CHARS,
  AccountMessages,
  accountRoutes,
  platformRoutes,
  ServiceMessages,
  type AccessToken,
  type Profile,
  type RouteDef,
  type RouteReply,
} from '@dash/contracts';
import { userHeaders } from '@dash/service-kit/dist/testing';
import { sha256Hex } from '../src/crypto';
import { ACCOUNT_ROLES, createRoleUsers, resolve, resolveRaw, signInAs, type Browser } from './account-helpers';
import { expectContract, expectError, query, startPlatform, type TestPlatform } from './helpers';

let platform: TestPlatform;
let users: Awaited<ReturnType<typeof createRoleUsers>>;
const browsers = {} as Record<(typeof ACCOUNT_ROLES)[number], Browser>;

beforeAll(async () => {
  platform = await startPlatform();
  users = await createRoleUsers(platform, 'acct', 'acct-app');
  for (const role of ACCOUNT_ROLES) browsers[role] = await signInAs(platform, users[role].email);
});
afterAll(() => platform.close());

const call = (def: RouteDef, url: string, headers: Record<string, string>, payload?: object) =>
  platform.app.inject({ method: def.method, url, headers, ...(payload ? { payload } : {}) });

type Created = RouteReply<typeof accountRoutes.createAccessToken>;

async function createToken(headers: Record<string, string>, body: object = { name: 'CI', expires_in_days: 30 }): Promise<Created> {
  return expectContract<Created>(accountRoutes.createAccessToken, await call(accountRoutes.createAccessToken, '/profile/access-tokens', headers, body));
}

async function listTokens(headers: Record<string, string>): Promise<AccessToken[]> {
  return expectContract<{ tokens: AccessToken[] }>(accountRoutes.listAccessTokens, await call(accountRoutes.listAccessTokens, '/profile/access-tokens', headers)).tokens;
}

const auditOf = (actorId: string) =>
  query<{ action: string; target: string; details: Record<string, unknown>; org_id: number | null }>(
    platform.databaseUrl,
    'select action, target, details, org_id from platform.audit_events where actor_id = $1 order by id',
    [actorId],
  );

it('registers every route of accountRoutes (each reply is checked against its contract below)', () => {
  for (const def of Object.values(accountRoutes) as RouteDef[]) {
    expect(`${def.method} ${def.url} ${platform.app.hasRoute({ method: def.method, url: def.url })}`).toBe(`${def.method} ${def.url} true`);
  }
});

describe('profile (/account/me)', () => {
  it.each(ACCOUNT_ROLES)('%s reads and changes their own name and theme', async (role) => {
    const { headers } = browsers[role];
    const before = expectContract<Profile>(accountRoutes.getProfile, await call(accountRoutes.getProfile, '/profile', headers));
    expect(before).toEqual({ id: users[role].id, email: users[role].email, name: users[role].email.split('@')[0], theme: 'dark' });

    const renamed = await call(accountRoutes.updateProfile, '/profile', headers, { name: `  ${role} person  ` });
    expect(expectContract<Profile>(accountRoutes.updateProfile, renamed)).toMatchObject({ name: `${role} person`, theme: 'dark' });
    const light = await call(accountRoutes.updateProfile, '/profile', headers, { theme: 'light' });
    expect(expectContract<Profile>(accountRoutes.updateProfile, light)).toMatchObject({ name: `${role} person`, theme: 'light' });

    // The session reply names the user by the new name too.
    const session = await call(platformRoutes.session, '/auth/session', headers);
    expect(expectContract<RouteReply<typeof platformRoutes.session>>(platformRoutes.session, session).user.name).toBe(`${role} person`);
  });

  it('changes only the caller: another user is untouched', async () => {
    await call(accountRoutes.updateProfile, '/profile', browsers.owner.headers, { name: 'Only me' });
    const other = expectContract<Profile>(accountRoutes.getProfile, await call(accountRoutes.getProfile, '/profile', browsers.developer.headers));
    expect(other.name).not.toBe('Only me');
  });

  it('refuses a blank name, an unknown theme, an empty change and unknown fields with 400', async () => {
    const { headers } = browsers.developer;
    expectError(accountRoutes.updateProfile, await call(accountRoutes.updateProfile, '/profile', headers, { name: '   ' }), 400);
    expectError(accountRoutes.updateProfile, await call(accountRoutes.updateProfile, '/profile', headers, { theme: 'blue' }), 400);
    expectError(accountRoutes.updateProfile, await call(accountRoutes.updateProfile, '/profile', headers, {}), 400);
    expectError(accountRoutes.updateProfile, await call(accountRoutes.updateProfile, '/profile', headers, { email: 'x@example.com' }), 400);
  });

  it('needs a signed-in user (401), also for an identity that names no user', async () => {
    expectError(accountRoutes.getProfile, await call(accountRoutes.getProfile, '/profile', {}), 401, ServiceMessages.signInRequired);
    expectError(accountRoutes.updateProfile, await call(accountRoutes.updateProfile, '/profile', userHeaders({}, 'user-1'), { theme: 'dark' }), 401, ServiceMessages.signInRequired);
  });
});

describe('personal access tokens (/account/tokens)', () => {
  it.each(ACCOUNT_ROLES)('%s creates a token, sees it listed without its secret, and revokes it', async (role) => {
    const { headers } = browsers[role];
    const user = users[role];
    const { token, secret } = await createToken(headers, { name: ` ${role} script `, expires_in_days: 30 });
    expect(secret).toMatch(new RegExp(`^${ACCESS_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`));
    expect(token).toMatchObject({ name: `${role} script`, prefix: secret.slice(0, ACCESS_TOKEN_VISIBLE_CHARS), last_used_at: null });
    const days = (Date.parse(token.expires_at!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    const listed = await listTokens(headers);
    expect(listed).toEqual([token]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    // Only the hash is stored.
    const rows = await query<{ token_hash: string }>(platform.databaseUrl, 'select token_hash from platform.access_tokens where id = $1', [token.id]);
    expect(rows).toEqual([{ token_hash: sha256Hex(secret) }]);

    // The token resolves to its user with the user's own roles, as a session would.
    const resolved = await resolve(platform, secret, 'access_token');
    expect(resolved.user.id).toBe(user.id);
    expect(resolved.projects).toEqual(role === 'non-member' ? {} : { 'acct-app': role });
    expect(resolved).toMatchObject({ aal: 'aal2', nextLevel: 'aal2' });

    const revoke = await call(accountRoutes.revokeAccessToken, `/profile/access-tokens/${token.id}`, headers);
    expect(expectContract(accountRoutes.revokeAccessToken, revoke)).toEqual({ ok: true });
    expect(await listTokens(headers)).toEqual([]);
    expectError(platformRoutes.resolveSession, await resolveRaw(platform, secret, 'access_token'), 401, AccountMessages.invalidAccessToken);

    expect((await auditOf(user.id)).filter((e) => e.action.startsWith('token.'))).toEqual([
      { action: 'token.created', target: `${role} script`, org_id: null, details: { token_id: token.id, prefix: token.prefix, expires_at: token.expires_at } },
      { action: 'token.revoked', target: `${role} script`, org_id: null, details: { token_id: token.id, prefix: token.prefix } },
    ]);
  });

  it.each(ACCOUNT_ROLES)("%s cannot see or revoke another user's token (404)", async (role) => {
    const victim = await createToken(browsers.owner.headers, { name: `owner's ${role} check`, expires_in_days: null });
    const { headers } = browsers[role === 'owner' ? 'developer' : role];
    expect((await listTokens(headers)).map((t) => t.id)).not.toContain(victim.token.id);
    const res = await call(accountRoutes.revokeAccessToken, `/profile/access-tokens/${victim.token.id}`, headers);
    expectError(accountRoutes.revokeAccessToken, res, 404, AccountMessages.accessTokenNotFound);
    expect((await resolve(platform, victim.secret, 'access_token')).user.id).toBe(users.owner.id);
  });

  it('never expires with expires_in_days null; an expired token no longer resolves', async () => {
    const forever = await createToken(browsers.developer.headers, { name: 'forever', expires_in_days: null });
    expect(forever.token.expires_at).toBeNull();
    expect((await resolve(platform, forever.secret, 'access_token')).user.id).toBe(users.developer.id);

    const soon = await createToken(browsers.developer.headers, { name: 'soon', expires_in_days: 1 });
    await query(platform.databaseUrl, `update platform.access_tokens set expires_at = now() - interval '1 second' where id = $1`, [soon.token.id]);
    expectError(platformRoutes.resolveSession, await resolveRaw(platform, soon.secret, 'access_token'), 401, AccountMessages.invalidAccessToken);
    // Still listed, so the user sees why a script stopped working.
    expect((await listTokens(browsers.developer.headers)).map((t) => t.name)).toContain('soon');
  });

  it('notes when a token was last used, at most once a minute', async () => {
    const { token, secret } = await createToken(browsers.read_only.headers, { name: 'usage', expires_in_days: 7 });
    await resolve(platform, secret, 'access_token');
    const first = (await listTokens(browsers.read_only.headers)).find((t) => t.id === token.id)!.last_used_at;
    expect(first).not.toBeNull();
    await resolve(platform, secret, 'access_token');
    expect((await listTokens(browsers.read_only.headers)).find((t) => t.id === token.id)!.last_used_at).toBe(first);
    await query(platform.databaseUrl, `update platform.access_tokens set last_used_at = now() - interval '2 minutes' where id = $1`, [token.id]);
    await resolve(platform, secret, 'access_token');
    expect(Date.parse((await listTokens(browsers.read_only.headers)).find((t) => t.id === token.id)!.last_used_at!)).toBeGreaterThan(Date.parse(first!));
  });

  it('a token is not a session cookie and a cookie is not a token', async () => {
    const { secret } = await createToken(browsers.developer.headers, { name: 'kinds', expires_in_days: 7 });
    expectError(platformRoutes.resolveSession, await resolveRaw(platform, secret), 401, ServiceMessages.signInRequired);
    expectError(platformRoutes.resolveSession, await resolveRaw(platform, browsers.developer.token, 'access_token'), 401, AccountMessages.invalidAccessToken);
  });

  it('refuses a blank name, a bad expiry and unknown fields with 400', async () => {
    const { headers } = browsers.developer;
    const create = (body: object) => call(accountRoutes.createAccessToken, '/profile/access-tokens', headers, body);
    expectError(accountRoutes.createAccessToken, await create({ name: '  ', expires_in_days: 7 }), 400);
    expectError(accountRoutes.createAccessToken, await create({ name: 'x', expires_in_days: 0 }), 400);
    expectError(accountRoutes.createAccessToken, await create({ name: 'x', expires_in_days: 366 }), 400);
    expectError(accountRoutes.createAccessToken, await create({ name: 'x' }), 400);
    expectError(accountRoutes.createAccessToken, await create({ name: 'x'.repeat(65), expires_in_days: 7 }), 400);
    expectError(accountRoutes.createAccessToken, await create({ name: 'x', expires_in_days: 7, scope: 'all' }), 400);
    expectError(accountRoutes.revokeAccessToken, await call(accountRoutes.revokeAccessToken, '/profile/access-tokens/not-a-uuid', headers), 400);
  });

  it('needs a signed-in user (401)', async () => {
    expectError(accountRoutes.listAccessTokens, await call(accountRoutes.listAccessTokens, '/profile/access-tokens', {}), 401);
    expectError(accountRoutes.createAccessToken, await call(accountRoutes.createAccessToken, '/profile/access-tokens', {}, { name: 'x', expires_in_days: 7 }), 401);
  });
});
