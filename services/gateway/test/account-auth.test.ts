import { AccountMessages, accountRoutes, MFA_REQUIRED_CODE, platformRoutes, ServiceMessages } from '@dash/contracts';
import { bearerToken, routeMatcher } from '../src/sessions';
import { PUBLIC_ORIGIN, startGateway, startUpstreams, type RunningGateway, type Seen, type Upstreams } from './stubs';

// Personal access tokens (`Authorization: Bearer`) and sessions waiting for their MFA code, at the gateway.

let upstreams: Upstreams;
let gateway: RunningGateway;

const alice = { user: { id: 'alice-id', email: 'alice@example.com', name: 'Alice' }, projects: { default: 'owner' as const } };
const viewer = { user: { id: 'viewer-id', email: 'viewer@example.com', name: 'Viewer' }, projects: { default: 'read_only' as const } };

beforeAll(async () => {
  upstreams = await startUpstreams();
  upstreams.sessions.set('cookie-alice', alice);
  upstreams.accessTokens.set('dash_pat_viewer', viewer);
  upstreams.sessions.set('cookie-pending', { ...alice, aal: 'aal1', nextLevel: 'aal2' });
  upstreams.sessions.set('cookie-done', { ...alice, aal: 'aal2', nextLevel: 'aal2' });
  // A long cache, so a test sees whether the gateway forgets a session on its own.
  gateway = await startGateway(upstreams.urls, { sessionCacheMs: 60_000 });
});
afterAll(async () => {
  await gateway.close();
  await upstreams.close();
});
beforeEach(() => {
  upstreams.seen.length = 0;
  upstreams.resolveCalls.length = 0;
});

const api = (path: string, init: RequestInit = {}) => fetch(`${gateway.url}/api${path}`, init);
const lastSeen = (): Seen => upstreams.seen[upstreams.seen.length - 1]!;

describe('personal access tokens', () => {
  it('a Bearer token acts as its user on every service, and no service sees the secret', async () => {
    for (const path of ['/platform/projects', '/pg-meta/default/tables', '/storage/default/buckets', '/logs/default/events']) {
      const res = await api(path, { headers: { authorization: 'Bearer dash_pat_viewer' } });
      expect(`${path} ${res.status}`).toBe(`${path} 200`);
      expect(lastSeen().identity).toMatchObject({ kind: 'user', sub: 'viewer-id', projects: { default: 'read_only' }, credential: 'access_token' });
      expect(lastSeen().headers.authorization).toBeUndefined();
    }
    // Resolved once, then cached like a session.
    expect(upstreams.resolveCalls).toEqual(['dash_pat_viewer']);
  });

  it('uses the token alone: a session cookie beside it is neither used nor forwarded', async () => {
    await api('/platform/projects', { headers: { authorization: 'bearer dash_pat_viewer', cookie: 'dash_session=cookie-alice' } });
    expect(lastSeen().identity).toMatchObject({ sub: 'viewer-id' });
    expect(lastSeen().headers.cookie).toBeUndefined();
  });

  it('refuses an unknown token with 401 before any service sees the request', async () => {
    const res = await api('/pg-meta/default/tables', { headers: { authorization: 'Bearer dash_pat_nope', cookie: 'dash_session=cookie-alice' } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: AccountMessages.invalidAccessToken });
    expect(upstreams.seen).toHaveLength(0);
  });

  it('a revoked token stops working at once, though the gateway had it cached', async () => {
    upstreams.accessTokens.set('dash_pat_alice', alice);
    upstreams.accessTokens.set('dash_pat_viewer_2', viewer);
    const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    expect((await api('/platform/projects', bearer('dash_pat_alice'))).status).toBe(200);
    expect((await api('/platform/projects', bearer('dash_pat_viewer_2'))).status).toBe(200);
    // Alice revokes her token from the browser (the platform deletes it while answering).
    upstreams.accessTokens.delete('dash_pat_alice');
    const revoke = await api('/platform/profile/access-tokens/0b7f7c56-8d5e-4f0a-9f43-0f6d2e1c8a11', {
      method: 'DELETE',
      headers: { cookie: 'dash_session=cookie-alice', origin: PUBLIC_ORIGIN },
    });
    expect(revoke.status).toBe(200);
    expect((await api('/platform/projects', bearer('dash_pat_alice'))).status).toBe(401);
    // Another user's cached token is not looked up again.
    const before = upstreams.resolveCalls.length;
    expect((await api('/platform/projects', bearer('dash_pat_viewer_2'))).status).toBe(200);
    expect(upstreams.resolveCalls.length).toBe(before);
  });

  it('a token is not a cookie: the same value as a cookie is an unknown session', async () => {
    await api('/platform/projects', { headers: { cookie: 'dash_session=dash_pat_viewer' } });
    expect(lastSeen().identity).toBeNull();
  });

  it('skips the cross-site check for a request with a token, not for one with a cookie', async () => {
    const post = (headers: Record<string, string>) =>
      api('/pg-meta/default/query', { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://elsewhere.example', ...headers }, body: '{}' });
    expect((await post({ authorization: 'Bearer dash_pat_viewer' })).status).toBe(200);
    expect(lastSeen().identity).toMatchObject({ sub: 'viewer-id' });
    const withCookie = await post({ cookie: 'dash_session=cookie-alice' });
    expect(withCookie.status).toBe(403);
    expect(await withCookie.json()).toMatchObject({ message: ServiceMessages.crossSite });
  });
});

describe('sessions waiting for their MFA code', () => {
  const pending = { cookie: 'dash_session=cookie-pending' };

  it.each([
    ['GET', '/pg-meta/default/tables'],
    ['POST', '/pg-meta/default/sql/run'],
    ['GET', '/storage/default/buckets'],
    ['GET', '/logs/default/events'],
    ['GET', '/platform/projects'],
    ['GET', '/platform/profile'],
    ['POST', '/platform/profile/access-tokens'],
    ['DELETE', '/platform/profile/mfa/factors/0b7f7c56-8d5e-4f0a-9f43-0f6d2e1c8a11'],
    ['GET', '/platform/auth/session/extra'],
  ])('refuses %s %s with 401 mfa_required', async (method, path) => {
    const res = await api(path, { method, headers: { ...pending, origin: PUBLIC_ORIGIN } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: AccountMessages.mfaRequired, code: MFA_REQUIRED_CODE });
    expect(upstreams.seen).toHaveLength(0);
  });

  it.each([
    ['GET', platformRoutes.session.url],
    ['POST', accountRoutes.verifyMfa.url],
    ['POST', platformRoutes.signIn.url],
    ['POST', platformRoutes.signOut.url],
  ])('lets %s %s through (what the MFA page needs)', async (method, url) => {
    const res = await api(`/platform${url}`, { method, headers: { ...pending, origin: PUBLIC_ORIGIN } });
    expect(res.status).toBe(200);
  });

  it('lets a session through once it reached aal2, and one whose user needs no more than aal1', async () => {
    for (const cookie of ['dash_session=cookie-done', 'dash_session=cookie-alice']) {
      expect((await api('/pg-meta/default/tables', { headers: { cookie } })).status).toBe(200);
    }
  });

  it('forgets the cached session after the MFA code is verified, so the raised level counts at once', async () => {
    upstreams.sessions.set('cookie-raise', { ...alice, aal: 'aal1', nextLevel: 'aal2' });
    const cookie = 'dash_session=cookie-raise';
    expect((await api('/pg-meta/default/tables', { headers: { cookie } })).status).toBe(401);
    // The platform raises the session while answering the verify call.
    upstreams.sessions.set('cookie-raise', { ...alice, aal: 'aal2', nextLevel: 'aal2' });
    expect((await api('/platform/auth/mfa/verify', { method: 'POST', headers: { cookie, origin: PUBLIC_ORIGIN } })).status).toBe(200);
    expect((await api('/pg-meta/default/tables', { headers: { cookie } })).status).toBe(200);
    expect(upstreams.resolveCalls.filter((t) => t === 'cookie-raise').length).toBeGreaterThanOrEqual(2);
  });

  it('forgets it too after a factor is confirmed or removed (the level or the need changed)', async () => {
    upstreams.sessions.set('cookie-enrol', alice);
    const cookie = 'dash_session=cookie-enrol';
    await api('/platform/projects', { headers: { cookie } });
    const id = '0b7f7c56-8d5e-4f0a-9f43-0f6d2e1c8a11';
    for (const [method, path] of [
      ['POST', `/platform/profile/mfa/factors/${id}/verify`],
      ['DELETE', `/platform/profile/mfa/factors/${id}`],
    ] as const) {
      // The call itself uses the cached session; the next one looks it up again.
      const before = upstreams.resolveCalls.length;
      await api(path, { method, headers: { cookie, origin: PUBLIC_ORIGIN } });
      await api('/platform/projects', { headers: { cookie } });
      expect(`${method} ${path}: ${upstreams.resolveCalls.length - before}`).toBe(`${method} ${path}: 1`);
    }
    // A route that changes nothing of the session keeps the cache.
    const before = upstreams.resolveCalls.length;
    await api('/platform/profile', { method: 'PATCH', headers: { cookie, origin: PUBLIC_ORIGIN } });
    await api('/platform/projects', { headers: { cookie } });
    expect(upstreams.resolveCalls.length - before).toBe(0);
  });
});

describe('helpers', () => {
  it('reads a Bearer token only', () => {
    expect(bearerToken({ authorization: 'Bearer abc' })).toBe('abc');
    expect(bearerToken({ authorization: 'bearer  abc ' })).toBe('abc');
    expect(bearerToken({ authorization: 'Basic abc' })).toBeUndefined();
    expect(bearerToken({ authorization: 'Bearer a b' })).toBeUndefined();
    expect(bearerToken({})).toBeUndefined();
  });

  it('matches routes with :params as one segment and the method exactly', () => {
    const matches = routeMatcher([accountRoutes.verifyMfaFactor, platformRoutes.session]);
    expect(matches('POST', '/profile/mfa/factors/abc/verify')).toBe(true);
    expect(matches('POST', '/profile/mfa/factors/a/b/verify')).toBe(false);
    expect(matches('GET', '/profile/mfa/factors/abc/verify')).toBe(false);
    expect(matches('GET', '/auth/session')).toBe(true);
    expect(matches('GET', '/auth/session/')).toBe(false);
    expect(matches('GET', '/auth/sessionx')).toBe(false);
  });
});
