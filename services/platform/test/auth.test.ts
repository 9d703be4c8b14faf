import { signForwardedClient } from '@dash/service-kit';
import { FORWARDED_HEADER, platformRoutes, ServiceMessages, SESSION_COOKIE, SIGN_IN_MAX_ATTEMPTS, type User } from '@dash/contracts';
import { forwardedFrom, serviceHeaders, userHeaders } from '@dash/service-kit/dist/testing';
import { buildPlatformApp } from '../src/app';
import { sha256Hex } from '../src/crypto';
import { createUser, expectContract, expectError, PASSWORD, query, startPlatform, type TestPlatform } from './helpers';

let platform: TestPlatform;
let owner: { id: string; email: string };

beforeAll(async () => {
  platform = await startPlatform();
  owner = await createUser(platform.ctx, 'Owner@Example.com', 'Olivia Owner');
});
afterAll(() => platform.close());

let nextIp = 1;
/** Each test signs in from its own address so rate-limit counters do not leak between tests. */
const freshIp = () => `10.0.0.${nextIp++}`;

function signIn(body: unknown, ip: string, headers: Record<string, string> = {}) {
  return platform.app.inject({
    method: 'POST',
    url: '/auth/sign-in',
    payload: body as Record<string, unknown>,
    headers: { ...forwardedFrom(ip), ...headers },
  });
}

function sessionCookie(setCookie: string | string[] | undefined): string {
  const header = [setCookie ?? []].flat().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!header) throw new Error('no session cookie set');
  return header;
}

function tokenOf(setCookie: string | string[] | undefined): string {
  return sessionCookie(setCookie).split(';')[0]!.slice(SESSION_COOKIE.length + 1);
}

describe('sign-in', () => {
  it('signs in with a case-insensitive email and sets an httpOnly SameSite=Lax session cookie', async () => {
    const res = await signIn({ email: 'OWNER@example.COM', password: PASSWORD }, freshIp());
    const body = expectContract<{ user: User }>(platformRoutes.signIn, res);
    expect(body.user).toEqual({ id: owner.id, email: 'owner@example.com', name: 'Olivia Owner' });

    const cookie = sessionCookie(res.headers['set-cookie']);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Max-Age=604800/);
    expect(cookie).not.toMatch(/; Secure/i); // default: served on http://127.0.0.1
    const token = tokenOf(res.headers['set-cookie']);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);

    // Only the sha256 of the token is stored, with a 7-day expiry.
    const rows = await query<{ token_hash: string; ttl_hours: number }>(
      platform.databaseUrl,
      `select token_hash, extract(epoch from expires_at - created_at) / 3600 as ttl_hours
         from platform.sessions where user_id = $1`,
      [owner.id],
    );
    expect(rows.map((r) => r.token_hash)).toContain(sha256Hex(token));
    expect(rows.map((r) => r.token_hash)).not.toContain(token);
    expect(Math.round(Number(rows.find((r) => r.token_hash === sha256Hex(token))!.ttl_hours))).toBe(7 * 24);
  });

  it('sets Secure on the cookie when configured', async () => {
    const secureApp = await buildPlatformApp({ ...platform.config, cookieSecure: true });
    try {
      const res = await secureApp.inject({
        method: 'POST',
        url: '/auth/sign-in',
        payload: { email: 'owner@example.com', password: PASSWORD },
        headers: { 'x-forwarded-for': freshIp() },
      });
      expect(res.statusCode).toBe(200);
      expect(sessionCookie(res.headers['set-cookie'])).toMatch(/; Secure/i);
    } finally {
      await secureApp.close();
    }
  });

  it('answers 401 with the same message for a wrong password and an unknown email', async () => {
    const ip = freshIp();
    const wrong = await signIn({ email: 'owner@example.com', password: 'nope' }, ip);
    expectError(platformRoutes.signIn, wrong, 401, ServiceMessages.invalidCredentials);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const unknown = await signIn({ email: 'nobody@example.com', password: PASSWORD }, ip);
    expectError(platformRoutes.signIn, unknown, 401, ServiceMessages.invalidCredentials);
  });

  it('spends similar time on an unknown email as on a wrong password (no account probing by timing)', async () => {
    const time = async (email: string) => {
      const started = process.hrtime.bigint();
      const res = await signIn({ email, password: 'wrong' }, freshIp());
      expect(res.statusCode).toBe(401);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time('owner@example.com'));
      unknown.push(await time(`ghost${i}@example.com`));
    }
    // Without the dummy hash an unknown email would answer ~20x faster (no scrypt at all).
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.3);
  });

  it('rejects a malformed body with 400 and a message', async () => {
    const ip = freshIp();
    expectError(platformRoutes.signIn, await signIn({ email: 'owner@example.com' }, ip), 400, /password/);
    expectError(platformRoutes.signIn, await signIn({ email: 'not-an-email', password: 'x' }, ip), 400, /email/);
    expectError(platformRoutes.signIn, await signIn({ email: 'owner@example.com', password: '' }, ip), 400, /password/);
    const badJson = await platform.app.inject({
      method: 'POST',
      url: '/auth/sign-in',
      payload: '{"email":',
      headers: { 'content-type': 'application/json', ...forwardedFrom(ip) },
    });
    expectError(platformRoutes.signIn, badJson, 400);
  });

  it(`rate limits after ${SIGN_IN_MAX_ATTEMPTS} failed attempts per email and address`, async () => {
    const ip = freshIp();
    for (let i = 0; i < SIGN_IN_MAX_ATTEMPTS; i++) {
      const res = await signIn({ email: 'owner@example.com', password: `guess-${i}` }, ip);
      expect(res.statusCode).toBe(401);
    }
    // Even the right password is refused now, with a Retry-After.
    const blocked = await signIn({ email: 'owner@example.com', password: PASSWORD }, ip);
    expectError(platformRoutes.signIn, blocked, 429, ServiceMessages.tooManySignIns);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The same email from another address, and another email from this address, still work.
    expect((await signIn({ email: 'owner@example.com', password: PASSWORD }, freshIp())).statusCode).toBe(200);
    expect((await signIn({ email: 'other@example.com', password: 'x' }, ip)).statusCode).toBe(401);
  });

  it('counts parallel guesses before checking them, so a burst cannot exceed the limit', async () => {
    const ip = freshIp();
    const results = await Promise.all(
      Array.from({ length: SIGN_IN_MAX_ATTEMPTS + 5 }, (_, i) => signIn({ email: 'owner@example.com', password: `p${i}` }, ip)),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(SIGN_IN_MAX_ATTEMPTS);
    expect(codes.filter((c) => c === 429)).toHaveLength(5);
  });

  it('a successful sign-in clears the counter of that email and address', async () => {
    const ip = freshIp();
    for (let i = 0; i < SIGN_IN_MAX_ATTEMPTS - 1; i++) await signIn({ email: 'owner@example.com', password: 'bad' }, ip);
    expect((await signIn({ email: 'owner@example.com', password: PASSWORD }, ip)).statusCode).toBe(200);
    for (let i = 0; i < SIGN_IN_MAX_ATTEMPTS; i++) {
      expect((await signIn({ email: 'owner@example.com', password: 'bad' }, ip)).statusCode).toBe(401);
    }
    expect((await signIn({ email: 'owner@example.com', password: 'bad' }, ip)).statusCode).toBe(429);
  });

  it.each([
    ['a client-sent x-forwarded-for from another host', '192.0.2.1', (i: number) => ({ 'x-forwarded-for': `203.0.113.${i}` })],
    ['a client-sent x-forwarded-for from this host', '127.0.0.1', (i: number) => ({ 'x-forwarded-for': `198.51.100.${i}` })],
    ['a forwarded address signed with another secret', '127.0.0.2', (i: number) => ({ [FORWARDED_HEADER]: signForwardedClient('not-the-secret', { ip: `192.0.2.${i}`, proto: 'http' }) })],
  ])('keys the limit on the peer, not on %s: spoofed addresses do not dodge it', async (_what, peer, spoof) => {
    const attempt = (i: number) =>
      platform.app.inject({
        method: 'POST',
        url: '/auth/sign-in',
        payload: { email: 'owner@example.com', password: `spoof-${i}` },
        remoteAddress: peer,
        headers: spoof(i),
      });
    for (let i = 0; i < SIGN_IN_MAX_ATTEMPTS; i++) expect((await attempt(i)).statusCode).toBe(401);
    expectError(platformRoutes.signIn, await attempt(99), 429, ServiceMessages.tooManySignIns);
  });

  it('marks the session cookie Secure when the gateway says the public URL is https', async () => {
    const secure = await signIn({ email: 'owner@example.com', password: PASSWORD }, freshIp(), forwardedFrom(freshIp(), 'https'));
    expect(sessionCookie(secure.headers['set-cookie'])).toMatch(/; Secure/i);
    const plain = await signIn({ email: 'owner@example.com', password: PASSWORD }, freshIp());
    expect(sessionCookie(plain.headers['set-cookie'])).not.toMatch(/Secure/i);
  });
});

describe('session and sign-out', () => {
  it('resolves the signed-in user from the identity', async () => {
    const res = await platform.app.inject({ method: 'GET', url: '/auth/session', headers: userHeaders({}, owner.id, owner.email) });
    expect(expectContract<{ user: User }>(platformRoutes.session, res).user.id).toBe(owner.id);
  });

  it('refuses the session route without a user identity', async () => {
    const none = await platform.app.inject({ method: 'GET', url: '/auth/session' });
    expectError(platformRoutes.session, none, 401, ServiceMessages.signInRequired);
    const service = await platform.app.inject({ method: 'GET', url: '/auth/session', headers: serviceHeaders() });
    expectError(platformRoutes.session, service, 401, ServiceMessages.signInRequired);
    // A validly signed identity of a user who does not exist (or a non-uuid sub) is no user.
    const ghost = await platform.app.inject({ method: 'GET', url: '/auth/session', headers: userHeaders({}, 'user-1') });
    expectError(platformRoutes.session, ghost, 401, ServiceMessages.signInRequired);
  });

  it('signs out: deletes the session and clears the cookie', async () => {
    const signedIn = await signIn({ email: 'owner@example.com', password: PASSWORD }, freshIp());
    const token = tokenOf(signedIn.headers['set-cookie']);
    const resolve = () =>
      platform.app.inject({ method: 'POST', url: '/internal/sessions/resolve', payload: { token }, headers: serviceHeaders() });
    expect((await resolve()).statusCode).toBe(200);

    const res = await platform.app.inject({ method: 'POST', url: '/auth/sign-out', cookies: { [SESSION_COOKIE]: token } });
    expect(expectContract(platformRoutes.signOut, res)).toEqual({ ok: true });
    const cleared = sessionCookie(res.headers['set-cookie']);
    expect(cleared).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
    expect(cleared).toMatch(/Max-Age=0/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);

    expectError(platformRoutes.resolveSession, await resolve(), 401, ServiceMessages.signInRequired);
    const rows = await query(platform.databaseUrl, 'select 1 from platform.sessions where token_hash = $1', [sha256Hex(token)]);
    expect(rows).toHaveLength(0);
  });

  it('signing out without a cookie is fine', async () => {
    const res = await platform.app.inject({ method: 'POST', url: '/auth/sign-out' });
    expect(expectContract(platformRoutes.signOut, res)).toEqual({ ok: true });
  });
});
