import { Secret, TOTP } from 'otpauth';
import { accountRoutes, fillPath, IDENTITY_HEADER, SESSION_COOKIE, ServiceMessages, type RouteDef, type RouteReply } from '@dash/contracts';
import { signIdentity } from '@dash/service-kit';
import { TEST_SECRET } from '@dash/service-kit/dist/testing';
import { resolve, signInAs, tokenHeaders, type Browser } from './account-helpers';
import { createUser, expectContract, expectError, query, startPlatform, type TestPlatform } from './helpers';

/**
 * Issue 27: a personal access token acts as its user everywhere except on the routes that manage
 * credentials (`access.sessionOnly`). A token must not mint tokens that outlive its own revocation, nor
 * remove the second factor enrolled after it was made.
 */
let platform: TestPlatform;
let browser: Browser;
let token: Record<string, string>;
let tokenId: string;
let factorId: string;
let userId: string;

type Created = RouteReply<typeof accountRoutes.createAccessToken>;
type Enrolled = RouteReply<typeof accountRoutes.enrollMfaFactor>;
type Factors = RouteReply<typeof accountRoutes.listMfaFactors>;
type Tokens = RouteReply<typeof accountRoutes.listAccessTokens>;

const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();

const call = (def: RouteDef, headers: Record<string, string>, params: Record<string, string> = {}, payload?: object) =>
  platform.app.inject({ method: def.method, url: fillPath(def.url, params), headers, ...(payload ? { payload } : {}) });

const tokensOf = async (headers: Record<string, string>) => expectContract<Tokens>(accountRoutes.listAccessTokens, await call(accountRoutes.listAccessTokens, headers)).tokens;
const factorsOf = async (headers: Record<string, string>) => expectContract<Factors>(accountRoutes.listMfaFactors, await call(accountRoutes.listMfaFactors, headers));

beforeAll(async () => {
  platform = await startPlatform();
  const user = await createUser(platform.ctx, 'leaky@example.com');
  userId = user.id;
  browser = await signInAs(platform, user.email);
  // The token is made first; the second factor is enrolled after it.
  const created = expectContract<Created>(accountRoutes.createAccessToken, await call(accountRoutes.createAccessToken, browser.headers, {}, { name: 'ci', expires_in_days: 7 }), 201);
  tokenId = created.token.id;
  token = tokenHeaders(await resolve(platform, created.secret, 'access_token'));
  const enrolled = expectContract<Enrolled>(accountRoutes.enrollMfaFactor, await call(accountRoutes.enrollMfaFactor, browser.headers, {}, {}), 201);
  factorId = enrolled.factor.id;
  expectContract(accountRoutes.verifyMfaFactor, await call(accountRoutes.verifyMfaFactor, browser.headers, { id: factorId }, { code: codeFor(enrolled.secret) }));
});
afterAll(() => platform.close());

it('a token lists its user’s tokens and factors (reading is harmless)', async () => {
  expect((await tokensOf(token)).map((t) => t.id)).toEqual([tokenId]);
  expect((await factorsOf(token)).factors.map((f) => [f.id, f.status])).toEqual([[factorId, 'verified']]);
});

it('a token made before MFA enrolment cannot remove the factor', async () => {
  expectError(accountRoutes.removeMfaFactor, await call(accountRoutes.removeMfaFactor, token, { id: factorId }), 403, ServiceMessages.sessionOnly);
  expect((await factorsOf(browser.headers)).factors.map((f) => [f.id, f.status])).toEqual([[factorId, 'verified']]);
  const removed = await query(platform.databaseUrl, `select 1 from platform.audit_events where actor_id = $1 and action = 'mfa.removed'`, [userId]);
  expect(removed).toEqual([]);
});

it('a token cannot create a token', async () => {
  const res = await call(accountRoutes.createAccessToken, token, {}, { name: 'successor', expires_in_days: null });
  expectError(accountRoutes.createAccessToken, res, 403, ServiceMessages.sessionOnly);
  expect((await tokensOf(browser.headers)).map((t) => t.id)).toEqual([tokenId]);
});

it('a token cannot revoke a token, not even itself', async () => {
  expectError(accountRoutes.revokeAccessToken, await call(accountRoutes.revokeAccessToken, token, { id: tokenId }), 403, ServiceMessages.sessionOnly);
  expect((await tokensOf(browser.headers)).map((t) => t.id)).toEqual([tokenId]);
});

it('a token cannot regenerate recovery codes, enrol or confirm a factor, or raise a session', async () => {
  const before = (await factorsOf(browser.headers)).recovery_codes_remaining;
  expectError(accountRoutes.regenerateRecoveryCodes, await call(accountRoutes.regenerateRecoveryCodes, token), 403, ServiceMessages.sessionOnly);
  expectError(accountRoutes.enrollMfaFactor, await call(accountRoutes.enrollMfaFactor, token, {}, {}), 403, ServiceMessages.sessionOnly);
  expectError(accountRoutes.verifyMfaFactor, await call(accountRoutes.verifyMfaFactor, token, { id: factorId }, { code: '123456' }), 403, ServiceMessages.sessionOnly);
  expectError(accountRoutes.verifyMfa, await call(accountRoutes.verifyMfa, token, {}, { code: '123456' }), 403, ServiceMessages.sessionOnly);
  expect(await factorsOf(browser.headers)).toEqual({ factors: [expect.objectContaining({ id: factorId, status: 'verified' })], recovery_codes_remaining: before });
});

it('a session may do all of it, also when its identity says it is a session', async () => {
  const { id, email } = (await resolve(platform, browser.token)).user;
  const session = {
    [IDENTITY_HEADER]: signIdentity(TEST_SECRET, { kind: 'user', sub: id, email, projects: {}, credential: 'session' }),
    cookie: `${SESSION_COOKIE}=${browser.token}`,
  };
  const created = expectContract<Created>(accountRoutes.createAccessToken, await call(accountRoutes.createAccessToken, session, {}, { name: 'second', expires_in_days: 1 }), 201);
  expectContract(accountRoutes.revokeAccessToken, await call(accountRoutes.revokeAccessToken, session, { id: created.token.id }));
  expectContract(accountRoutes.regenerateRecoveryCodes, await call(accountRoutes.regenerateRecoveryCodes, session));
  expectContract(accountRoutes.removeMfaFactor, await call(accountRoutes.removeMfaFactor, session, { id: factorId }));
  expect((await factorsOf(session)).factors).toEqual([]);
});

it('every route that manages tokens or factors is declared session-only; reading routes are not', () => {
  const sessionOnly = Object.entries(accountRoutes)
    .filter(([, def]) => def.access.kind === 'signed_in' && def.access.sessionOnly)
    .map(([name]) => name);
  expect(sessionOnly.sort()).toEqual(
    ['createAccessToken', 'enrollMfaFactor', 'regenerateRecoveryCodes', 'removeMfaFactor', 'revokeAccessToken', 'verifyMfa', 'verifyMfaFactor'].sort(),
  );
});
