import { SessionResolver } from '../src/sessions';
import { deadUrl, startUpstreams, type Upstreams } from './stubs';
import { TEST_SECRET } from '@dash/service-kit/dist/testing';
import { DATABASE_UNAVAILABLE } from '@dash/service-kit';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

let upstreams: Upstreams;
beforeAll(async () => {
  upstreams = await startUpstreams();
  upstreams.sessions.set('good', { user: { id: 'u1', email: 'u1@example.com', name: 'U1' }, projects: { default: 'developer' } });
});
afterAll(() => upstreams.close());
beforeEach(() => {
  upstreams.resolveCalls.length = 0;
});
afterEach(() => jest.restoreAllMocks());

/** Moves the resolver's clock (it reads Date.now) forward, instead of sleeping through its cache's lifetime. */
function advanceClock(ms: number): void {
  const later = Date.now() + ms;
  jest.spyOn(Date, 'now').mockReturnValue(later);
}

describe('SessionResolver', () => {
  it('caches a resolved session for the TTL only', async () => {
    const resolver = new SessionResolver(upstreams.urls.platform, TEST_SECRET, 150);
    expect(await resolver.resolve('good')).toMatchObject({ user: { id: 'u1' }, projects: { default: 'developer' } });
    await resolver.resolve('good');
    expect(upstreams.resolveCalls).toEqual(['good']);
    advanceClock(100);
    await resolver.resolve('good');
    expect(upstreams.resolveCalls).toEqual(['good']);
    advanceClock(100);
    await resolver.resolve('good');
    expect(upstreams.resolveCalls).toEqual(['good', 'good']);
  });

  it('shares one lookup between concurrent requests', async () => {
    const resolver = new SessionResolver(upstreams.urls.platform, TEST_SECRET, 5000);
    const results = await Promise.all(Array.from({ length: 5 }, () => resolver.resolve('good')));
    expect(results.every((r) => r?.user.id === 'u1')).toBe(true);
    expect(upstreams.resolveCalls).toHaveLength(1);
  });

  it('remembers an unknown session only briefly', async () => {
    const resolver = new SessionResolver(upstreams.urls.platform, TEST_SECRET, 60_000);
    expect(await resolver.resolve('later')).toBeNull();
    expect(await resolver.resolve('later')).toBeNull();
    expect(upstreams.resolveCalls).toEqual(['later']);
    upstreams.sessions.set('later', { user: { id: 'u2', email: 'u2@example.com', name: 'U2' }, projects: {} });
    advanceClock(1_100);
    expect(await resolver.resolve('later')).toMatchObject({ user: { id: 'u2' } });
  });

  it('does not cache a platform failure', async () => {
    const resolver = new SessionResolver(await deadUrl(), TEST_SECRET, 60_000);
    await expect(resolver.resolve('good')).rejects.toMatchObject({ statusCode: 502 });
    await expect(resolver.resolve('good')).rejects.toMatchObject({ statusCode: 502 });
  });

  it('passes on a platform 503 (its database restarting) as a 503 with the message, not a 502', async () => {
    const restarting = http.createServer((_req, res) => res.writeHead(503, { 'content-type': 'application/json' }).end('{"statusCode":503}'));
    await new Promise<void>((resolve) => restarting.listen(0, '127.0.0.1', resolve));
    try {
      const resolver = new SessionResolver(`http://127.0.0.1:${(restarting.address() as AddressInfo).port}`, TEST_SECRET, 60_000);
      await expect(resolver.resolve('good')).rejects.toMatchObject({ statusCode: 503, message: DATABASE_UNAVAILABLE });
    } finally {
      restarting.close();
    }
  });

  it('invalidates one token', async () => {
    const resolver = new SessionResolver(upstreams.urls.platform, TEST_SECRET, 60_000);
    await resolver.resolve('good');
    resolver.invalidate('good');
    await resolver.resolve('good');
    expect(upstreams.resolveCalls).toEqual(['good', 'good']);
  });

  it('does not remember a lookup that was under way when the session was signed out', async () => {
    const resolver = new SessionResolver(upstreams.urls.platform, TEST_SECRET, 60_000);
    const inFlight = resolver.resolve('good');
    resolver.invalidate('good');
    expect(await inFlight).toMatchObject({ user: { id: 'u1' } });
    await resolver.resolve('good');
    expect(upstreams.resolveCalls).toEqual(['good', 'good']);
  });
});
