import { Secret, TOTP } from 'otpauth';
import {
  AccountMessages,
  accountRoutes,
  MFA_MAX_ATTEMPTS,
  MFA_RECOVERY_CODE_COUNT,
  platformRoutes,
  ServiceMessages,
  TOTP_ISSUER,
  type RouteDef,
  type RouteReply,
} from '@dash/contracts';
import { ACCOUNT_ROLES, createRoleUsers, resolve, signInAs, type Browser } from './account-helpers';
import { createUser, expectContract, expectError, query, startPlatform, type TestPlatform } from './helpers';

let platform: TestPlatform;
let users: Awaited<ReturnType<typeof createRoleUsers>>;

beforeAll(async () => {
  platform = await startPlatform();
  users = await createRoleUsers(platform, 'mfa', 'mfa-app');
});
afterAll(() => platform.close());

type Enrolled = RouteReply<typeof accountRoutes.enrollMfaFactor>;
type Verified = RouteReply<typeof accountRoutes.verifyMfaFactor>;
type Factors = RouteReply<typeof accountRoutes.listMfaFactors>;
type Session = RouteReply<typeof platformRoutes.session>;

const STEP_MS = 30_000;

/** The code an authenticator app shows for the secret, `steps` 30-second steps from now. */
const codeFor = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * STEP_MS });

const call = (def: RouteDef, url: string, browser: Browser, payload?: object) =>
  platform.app.inject({ method: def.method, url, headers: browser.headers, ...(payload ? { payload } : {}) });

const session = async (browser: Browser) => expectContract<Session>(platformRoutes.session, await call(platformRoutes.session, '/auth/session', browser));
const factors = async (browser: Browser) => expectContract<Factors>(accountRoutes.listMfaFactors, await call(accountRoutes.listMfaFactors, '/profile/mfa/factors', browser));
const enroll = async (browser: Browser, body: object = {}) =>
  expectContract<Enrolled>(accountRoutes.enrollMfaFactor, await call(accountRoutes.enrollMfaFactor, '/profile/mfa/factors', browser, body), 201);
const verifyFactor = (browser: Browser, id: string, code: string) => call(accountRoutes.verifyMfaFactor, `/profile/mfa/factors/${id}/verify`, browser, { code });
const verifyAtSignIn = (browser: Browser, code: string) => call(accountRoutes.verifyMfa, '/auth/mfa/verify', browser, { code });
const removeFactor = (browser: Browser, id: string) => call(accountRoutes.removeMfaFactor, `/profile/mfa/factors/${id}`, browser);

/**
 * Waits out the last seconds of a 30-second step, so a test that expects "this step's code was used"
 * does not see the step change between two calls.
 */
async function awayFromStepEnd() {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < 5000) await new Promise((r) => setTimeout(r, left + 50));
}

/** Enrols and confirms a factor with the current code; returns its secret, id and recovery codes. */
async function enrollVerified(browser: Browser) {
  await awayFromStepEnd();
  const enrolled = await enroll(browser);
  const verified = expectContract<Verified>(accountRoutes.verifyMfaFactor, await verifyFactor(browser, enrolled.factor.id, codeFor(enrolled.secret)));
  return { secret: enrolled.secret, id: enrolled.factor.id, recoveryCodes: verified.recovery_codes };
}

const auditActions = async (userId: string) =>
  (await query<{ action: string; target: string }>(platform.databaseUrl, `select action, target from platform.audit_events where actor_id = $1 and action like 'mfa.%' order by id`, [userId]));

describe('TOTP enrolment (/account/security)', () => {
  it.each(ACCOUNT_ROLES)('%s enrols, confirms with a code, gets recovery codes, and removes the factor', async (role) => {
    const user = users[role];
    const browser = await signInAs(platform, user.email);
    expect(browser.reply).toMatchObject({ aal: 'aal1', nextLevel: 'aal1' });
    expect(await factors(browser)).toEqual({ factors: [], recovery_codes_remaining: 0 });

    const enrolled = await enroll(browser, { friendly_name: 'Phone' });
    expect(enrolled.factor).toMatchObject({ factor_type: 'totp', friendly_name: 'Phone', status: 'unverified' });
    expect(enrolled.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(enrolled.uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(enrolled.secret);
    expect(uri.searchParams.get('issuer')).toBe(TOTP_ISSUER);
    expect(decodeURIComponent(uri.pathname)).toContain(user.email);
    // The secret is stored encrypted, never as given.
    const [stored] = await query<{ secret_encrypted: string }>(platform.databaseUrl, 'select secret_encrypted from platform.mfa_factors where id = $1', [enrolled.factor.id]);
    expect(stored!.secret_encrypted).not.toContain(enrolled.secret);
    // Unverified, it asks nothing of sign-in yet.
    expect(await session(browser)).toMatchObject({ aal: 'aal1', nextLevel: 'aal1' });

    expectError(accountRoutes.verifyMfaFactor, await verifyFactor(browser, enrolled.factor.id, '000000'), 400, AccountMessages.invalidMfaCode);
    await awayFromStepEnd();
    const verified = expectContract<Verified>(accountRoutes.verifyMfaFactor, await verifyFactor(browser, enrolled.factor.id, codeFor(enrolled.secret)));
    expect(verified.factor.status).toBe('verified');
    expect(verified.recovery_codes).toHaveLength(MFA_RECOVERY_CODE_COUNT);
    expect(new Set(verified.recovery_codes).size).toBe(MFA_RECOVERY_CODE_COUNT);
    for (const code of verified.recovery_codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    // The code proved the factor in this session: it is at aal2 already.
    expect(await session(browser)).toMatchObject({ aal: 'aal2', nextLevel: 'aal2' });
    expect(await factors(browser)).toMatchObject({ factors: [{ id: enrolled.factor.id, status: 'verified' }], recovery_codes_remaining: MFA_RECOVERY_CODE_COUNT });

    // A second factor is refused while one is verified, and the verified one cannot be confirmed again.
    expectError(accountRoutes.enrollMfaFactor, await call(accountRoutes.enrollMfaFactor, '/profile/mfa/factors', browser, {}), 409, AccountMessages.mfaAlreadyEnabled);
    expectError(accountRoutes.verifyMfaFactor, await verifyFactor(browser, enrolled.factor.id, codeFor(enrolled.secret, 1)), 409, AccountMessages.factorAlreadyVerified);

    const regenerated = await call(accountRoutes.regenerateRecoveryCodes, '/profile/mfa/recovery-codes', browser);
    const fresh = expectContract<RouteReply<typeof accountRoutes.regenerateRecoveryCodes>>(accountRoutes.regenerateRecoveryCodes, regenerated).recovery_codes;
    expect(fresh).toHaveLength(MFA_RECOVERY_CODE_COUNT);
    expect(fresh.filter((code) => verified.recovery_codes.includes(code))).toEqual([]);

    expect(expectContract(accountRoutes.removeMfaFactor, await removeFactor(browser, enrolled.factor.id))).toEqual({ ok: true });
    expect(await factors(browser)).toEqual({ factors: [], recovery_codes_remaining: 0 });
    expect((await signInAs(platform, user.email)).reply).toMatchObject({ aal: 'aal1', nextLevel: 'aal1' });
    expect(await auditActions(user.id)).toEqual([
      { action: 'mfa.enrolled', target: 'Phone' },
      { action: 'mfa.removed', target: 'Phone' },
    ]);
  });

  it.each(ACCOUNT_ROLES)("%s cannot confirm or remove another user's factor (404)", async (role) => {
    const victim = await createUser(platform.ctx, `victim-of-${role.replace('_', '-')}@example.com`);
    const victimBrowser = await signInAs(platform, victim.email);
    const pending = await enroll(victimBrowser);
    const attacker = await signInAs(platform, users[role].email);
    expectError(accountRoutes.verifyMfaFactor, await verifyFactor(attacker, pending.factor.id, codeFor(pending.secret)), 404, AccountMessages.factorNotFound);
    expectError(accountRoutes.removeMfaFactor, await removeFactor(attacker, pending.factor.id), 404, AccountMessages.factorNotFound);
    expect((await factors(victimBrowser)).factors).toHaveLength(1);
  });

  it('a new enrolment replaces an unconfirmed one; removing that one records nothing', async () => {
    const user = await createUser(platform.ctx, 'twice@example.com');
    const browser = await signInAs(platform, user.email);
    const first = await enroll(browser);
    const second = await enroll(browser);
    expect((await factors(browser)).factors.map((f) => f.id)).toEqual([second.factor.id]);
    expectError(accountRoutes.verifyMfaFactor, await verifyFactor(browser, first.factor.id, codeFor(first.secret)), 404, AccountMessages.factorNotFound);
    expect(expectContract(accountRoutes.removeMfaFactor, await removeFactor(browser, second.factor.id))).toEqual({ ok: true });
    expect(await auditActions(user.id)).toEqual([]);
  });

  it('recovery codes need a verified factor', async () => {
    const user = await createUser(platform.ctx, 'nocodes@example.com');
    const browser = await signInAs(platform, user.email);
    const res = await call(accountRoutes.regenerateRecoveryCodes, '/profile/mfa/recovery-codes', browser);
    expectError(accountRoutes.regenerateRecoveryCodes, res, 400, AccountMessages.noMfaFactor);
  });
});

describe('sign-in with MFA (/sign-in-mfa)', () => {
  it.each(ACCOUNT_ROLES)('%s signs in at aal1 and reaches aal2 with a TOTP code; the code does not work twice', async (role) => {
    const user = await createUser(platform.ctx, `signin-${role.replace('_', '-')}@example.com`);
    const { secret } = await enrollVerified(await signInAs(platform, user.email));

    const browser = await signInAs(platform, user.email);
    expect(browser.reply).toMatchObject({ aal: 'aal1', nextLevel: 'aal2' });
    expect(await session(browser)).toMatchObject({ aal: 'aal1', nextLevel: 'aal2' });
    expect(await resolve(platform, browser.token)).toMatchObject({ aal: 'aal1', nextLevel: 'aal2' });

    // The enrolment used this step's code: it is not accepted again, the next step's is (clock drift).
    expectError(accountRoutes.verifyMfa, await verifyAtSignIn(browser, codeFor(secret)), 400, AccountMessages.invalidMfaCode);
    const next = codeFor(secret, 1);
    const verified = await verifyAtSignIn(browser, next);
    expect(expectContract<RouteReply<typeof accountRoutes.verifyMfa>>(accountRoutes.verifyMfa, verified)).toMatchObject({
      user: { id: user.id },
      aal: 'aal2',
      nextLevel: 'aal2',
    });
    expect(await resolve(platform, browser.token)).toMatchObject({ aal: 'aal2', nextLevel: 'aal2' });

    // Another session cannot replay the same code.
    const other = await signInAs(platform, user.email);
    expectError(accountRoutes.verifyMfa, await verifyAtSignIn(other, next), 400, AccountMessages.invalidMfaCode);
    expect(await session(other)).toMatchObject({ aal: 'aal1', nextLevel: 'aal2' });
  });

  it('a recovery code raises a session once; each code works once and the count goes down', async () => {
    const user = await createUser(platform.ctx, 'recovery@example.com');
    const { recoveryCodes } = await enrollVerified(await signInAs(platform, user.email));
    const first = await signInAs(platform, user.email);
    // Case, spaces and the dash do not matter.
    const typed = ` ${recoveryCodes[0]!.toUpperCase().replace('-', ' ')} `;
    expect(expectContract(accountRoutes.verifyMfa, await verifyAtSignIn(first, typed))).toMatchObject({ aal: 'aal2' });
    expect((await factors(first)).recovery_codes_remaining).toBe(MFA_RECOVERY_CODE_COUNT - 1);
    const second = await signInAs(platform, user.email);
    expectError(accountRoutes.verifyMfa, await verifyAtSignIn(second, recoveryCodes[0]!), 400, AccountMessages.invalidMfaCode);
    expectError(accountRoutes.verifyMfa, await verifyAtSignIn(second, 'aaaaa-bbbbb'), 400, AccountMessages.invalidMfaCode);
  });

  it(`limits wrong codes to ${MFA_MAX_ATTEMPTS} per user: then even the right code waits (429 with Retry-After)`, async () => {
    const user = await createUser(platform.ctx, 'guesser@example.com');
    const { secret } = await enrollVerified(await signInAs(platform, user.email));
    const browser = await signInAs(platform, user.email);
    for (let i = 0; i < MFA_MAX_ATTEMPTS; i++) expect((await verifyAtSignIn(browser, String(100000 + i))).statusCode).toBe(400);
    const blocked = await verifyAtSignIn(browser, codeFor(secret, 1));
    expectError(accountRoutes.verifyMfa, blocked, 429, AccountMessages.tooManyMfaAttempts);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The limit is the user's, not the session's: a new session does not reset it.
    expectError(accountRoutes.verifyMfa, await verifyAtSignIn(await signInAs(platform, user.email), codeFor(secret, 1)), 429);
    expect(await session(browser)).toMatchObject({ aal: 'aal1' });
  });

  it('counts parallel guesses before checking them', async () => {
    const user = await createUser(platform.ctx, 'burst@example.com');
    await enrollVerified(await signInAs(platform, user.email));
    const browser = await signInAs(platform, user.email);
    const codes = (await Promise.all(Array.from({ length: MFA_MAX_ATTEMPTS + 3 }, (_, i) => verifyAtSignIn(browser, String(200000 + i))))).map((r) => r.statusCode);
    expect(codes.filter((c) => c === 400)).toHaveLength(MFA_MAX_ATTEMPTS);
    expect(codes.filter((c) => c === 429)).toHaveLength(3);
  });

  it('refuses a user without a factor (400), a caller without a session cookie (401) and a malformed code (400)', async () => {
    const plain = await signInAs(platform, users.developer.email);
    expectError(accountRoutes.verifyMfa, await verifyAtSignIn(plain, '123456'), 400, AccountMessages.noMfaFactor);
    const { cookie: _cookie, ...identityOnly } = plain.headers;
    const noCookie = await platform.app.inject({ method: 'POST', url: '/auth/mfa/verify', headers: identityOnly, payload: { code: '123456' } });
    expectError(accountRoutes.verifyMfa, noCookie, 401, ServiceMessages.signInRequired);
    expectError(accountRoutes.verifyMfa, await verifyAtSignIn(plain, '12'), 400);
    const none = await platform.app.inject({ method: 'POST', url: '/auth/mfa/verify', payload: { code: '123456' } });
    expectError(accountRoutes.verifyMfa, none, 401, ServiceMessages.signInRequired);
  });

  it('an access token counts as aal2 even for a user with a factor; the session route says so without a cookie', async () => {
    const user = await createUser(platform.ctx, 'scripted@example.com');
    const browser = await signInAs(platform, user.email);
    await enrollVerified(browser);
    const created = await call(accountRoutes.createAccessToken, '/profile/access-tokens', browser, { name: 'ci', expires_in_days: 7 });
    const { secret } = expectContract<RouteReply<typeof accountRoutes.createAccessToken>>(accountRoutes.createAccessToken, created, 201);
    const resolved = await resolve(platform, secret, 'access_token');
    expect(resolved).toMatchObject({ aal: 'aal2', nextLevel: 'aal2' });
    const { cookie: _cookie, ...identityOnly } = browser.headers;
    const res = await platform.app.inject({ method: 'GET', url: '/auth/session', headers: identityOnly });
    expect(expectContract<Session>(platformRoutes.session, res)).toMatchObject({ aal: 'aal2', nextLevel: 'aal2' });
  });

  it('signing out ends a session waiting for its code', async () => {
    const user = await createUser(platform.ctx, 'leaver@example.com');
    await enrollVerified(await signInAs(platform, user.email));
    const browser = await signInAs(platform, user.email);
    await platform.app.inject({ method: 'POST', url: '/auth/sign-out', headers: { cookie: browser.headers.cookie! } });
    expectError(platformRoutes.session, await call(platformRoutes.session, '/auth/session', browser), 401, ServiceMessages.signInRequired);
  });
});
