import { deadUrl, startGateway, startUpstreams, type RunningGateway, type Upstreams } from './stubs';

let upstreams: Upstreams;
beforeAll(async () => {
  upstreams = await startUpstreams();
});
afterAll(() => upstreams.close());

interface Health {
  status: string;
  services: Record<string, { status: string; latencyMs: number }>;
}

describe('health', () => {
  it('is ok (200) when every service is up', async () => {
    const gateway = await startGateway(upstreams.urls);
    try {
      const res = await fetch(`${gateway.url}/health`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as Health;
      expect(body.status).toBe('ok');
      expect(Object.keys(body.services).sort()).toEqual(['auth', 'graphql', 'logs', 'mail', 'pg-meta', 'platform', 'rest', 'storage']);
      for (const service of Object.values(body.services)) {
        expect(service.status).toBe('up');
        expect(typeof service.latencyMs).toBe('number');
      }
    } finally {
      await gateway.close();
    }
  });

  it('is degraded (503) and names the service that is down', async () => {
    const gateway = await startGateway({ ...upstreams.urls, storage: await deadUrl() });
    try {
      const res = await fetch(`${gateway.url}/health`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as Health;
      expect(body.status).toBe('degraded');
      expect(body.services.storage!.status).toBe('down');
      expect(body).toMatchObject({ missing: ['storage'], message: 'Not ready: the storage service is unavailable' });
      expect(body.services.platform!.status).toBe('up');
      expect(body.services.logs!.status).toBe('up');
    } finally {
      await gateway.close();
    }
  });

  it('names the dependency a service misses (Postgres down under the platform), while /health/live stays 200', async () => {
    upstreams.missingDependencies = { platform: ['postgres'], logs: ['postgres'] };
    const gateway = await startGateway(upstreams.urls);
    try {
      const res = await fetch(`${gateway.url}/health`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({
        status: 'degraded',
        services: { platform: { status: 'unavailable', missing: ['postgres'] }, storage: { status: 'up', missing: [] } },
        missing: ['platform: postgres', 'logs: postgres'],
        message: 'Not ready: postgres (platform, logs) is unavailable',
      });
      const live = await fetch(`${gateway.url}/health/live`);
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ status: 'ok', service: 'gateway' });
    } finally {
      upstreams.missingDependencies = {};
      await gateway.close();
    }
  });

  it('counts a service that does not answer within the timeout as down', async () => {
    upstreams.slowHealthMs = 1500;
    const gateway = await startGateway(upstreams.urls, { healthTimeoutMs: 200 });
    try {
      const started = Date.now();
      const res = await fetch(`${gateway.url}/health`);
      expect(Date.now() - started).toBeLessThan(1400);
      const body = (await res.json()) as Health;
      expect(res.status).toBe(503);
      expect(body.services['pg-meta']).toMatchObject({ status: 'down' });
      expect(body.services['pg-meta']!.latencyMs).toBeGreaterThanOrEqual(150);
    } finally {
      upstreams.slowHealthMs = 0;
      await gateway.close();
    }
  });
});

describe('registry.json', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway(upstreams.urls);
  });
  afterAll(() => gateway.close());

  const valid = {
    schemaVersion: 1,
    remotes: [
      {
        name: 'mfe_logs',
        version: '1.2.0',
        entry: 'http://127.0.0.1:4105/1.2.0/mf-manifest.json',
        contract: 1,
        mount: 'logs',
        title: 'Logs',
      },
    ],
  };

  it('serves the platform registry, validated, with cache-control no-cache', async () => {
    upstreams.registry = { status: 200, body: valid };
    const res = await fetch(`${gateway.url}/registry.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual(valid);
  });

  it.each([
    ['a bad entry URL', { ...valid, remotes: [{ ...valid.remotes[0], entry: 'javascript:alert(1)' }] }],
    ['an unknown schema version', { ...valid, schemaVersion: 2 }],
    ['an extra property', { ...valid, remotes: [{ ...valid.remotes[0], script: 'x' }] }],
    ['not an object', 'hello'],
  ])('answers 502 for an invalid registry (%s)', async (_, body) => {
    upstreams.registry = { status: 200, body };
    const res = await fetch(`${gateway.url}/registry.json`);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ statusCode: 502, error: 'Bad Gateway', message: 'The platform service returned an invalid registry' });
  });

  it('serves the last registry the platform gave, marked stale, while the platform fails', async () => {
    upstreams.registry = { status: 200, body: valid };
    expect((await fetch(`${gateway.url}/registry.json`)).headers.get('x-dash-registry')).toBeNull();
    upstreams.registry = { status: 503, body: { message: 'The database is unavailable' } };
    const stale = await fetch(`${gateway.url}/registry.json`);
    expect(stale.status).toBe(200);
    expect(stale.headers.get('x-dash-registry')).toBe('stale');
    expect(await stale.json()).toEqual(valid);
    // An invalid registry is refused, never served or kept.
    upstreams.registry = { status: 200, body: 'hello' };
    expect((await fetch(`${gateway.url}/registry.json`)).status).toBe(502);
  });

  it('answers 502 when the platform fails or is down and it has no registry yet', async () => {
    upstreams.registry = { status: 500, body: { message: 'boom' } };
    const fresh = await startGateway(upstreams.urls);
    try {
      const failing = await fetch(`${fresh.url}/registry.json`);
      expect(failing.status).toBe(502);
      expect(((await failing.json()) as { message: string }).message).toMatch(/answered 500/);
    } finally {
      await fresh.close();
    }

    const down = await startGateway({ ...upstreams.urls, platform: await deadUrl() });
    try {
      const res = await fetch(`${down.url}/registry.json`);
      expect(res.status).toBe(502);
      expect(await res.json()).toMatchObject({ statusCode: 502, error: 'Bad Gateway' });
    } finally {
      await down.close();
    }
  });
});
