import { ProjectMessages } from '@dash/contracts';
import { PUBLIC_ORIGIN, startGateway, startUpstreams, type RunningGateway, type Upstreams } from './stubs';

let upstreams: Upstreams;
let gateway: RunningGateway;

beforeAll(async () => {
  upstreams = await startUpstreams();
  upstreams.sessions.set('tok-member', {
    user: { id: 'member-id', email: 'member@example.com', name: 'Member' },
    projects: { live: 'owner', paused: 'owner', rising: 'developer', flaky: 'owner', gone: 'owner', cached: 'owner', toggled: 'owner' },
  });
  upstreams.sessions.set('tok-creator', { user: { id: 'creator-id', email: 'c@example.com', name: 'C' }, projects: {} });
  upstreams.sessions.set('tok-stranger', { user: { id: 'stranger-id', email: 'x@example.com', name: 'X' }, projects: {} });
  // A long cache, so the invalidation on writes is what the tests see; each test has refs of its own.
  gateway = await startGateway(upstreams.urls, { projectStatusCacheMs: 60_000 });
});
afterAll(async () => {
  await gateway.close();
  await upstreams.close();
});
beforeEach(() => {
  upstreams.seen.length = 0;
  upstreams.statusCalls.length = 0;
  upstreams.resolveCalls.length = 0;
});

const get = (path: string, token = 'tok-member') => fetch(`${gateway.url}${path}`, { headers: { cookie: `dash_session=${token}` } });
const post = (path: string, token = 'tok-member') =>
  fetch(`${gateway.url}${path}`, { method: 'POST', headers: { cookie: `dash_session=${token}`, origin: PUBLIC_ORIGIN } });

describe('a project that is not active', () => {
  it('answers 503 on pg-meta and storage for a paused project, without calling the service', async () => {
    upstreams.projectStatuses.set('paused', 'INACTIVE');
    for (const path of ['/api/pg-meta/paused/tables', '/api/storage/paused/buckets']) {
      const res = await get(path);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ statusCode: 503, error: 'Service Unavailable', message: ProjectMessages.projectPaused('paused') });
    }
    expect(upstreams.seen).toEqual([]);
  });

  it('answers 503 while a project is coming up', async () => {
    upstreams.projectStatuses.set('rising', 'COMING_UP');
    const res = await get('/api/pg-meta/rising/sql/run');
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toBe(ProjectMessages.projectComingUp('rising'));
  });

  it('answers 503 on the project API (keys, any origin) too, with CORS headers', async () => {
    upstreams.projectStatuses.set('paused', 'INACTIVE');
    const res = await fetch(`${gateway.url}/p/paused/storage/v1/bucket`, { headers: { origin: 'https://app.example.com', apikey: 'k' } });
    expect(res.status).toBe(503);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(((await res.json()) as { message: string }).message).toBe(ProjectMessages.projectPaused('paused'));
    expect(upstreams.seen).toEqual([]);
  });

  it('forwards an active project, and keeps the platform and logs reachable for a paused one', async () => {
    upstreams.projectStatuses.set('live', 'ACTIVE_HEALTHY');
    upstreams.projectStatuses.set('paused', 'INACTIVE');
    expect((await get('/api/pg-meta/live/tables')).status).toBe(200);
    expect((await get('/api/platform/projects/paused/lifecycle')).status).toBe(200);
    expect((await get('/api/logs/paused/edge-logs')).status).toBe(200);
    expect(upstreams.seen.map((s) => `${s.service} ${s.url}`)).toEqual([
      'pg-meta /live/tables',
      'platform /projects/paused/lifecycle',
      'logs /paused/edge-logs',
    ]);
  });

  it('treats a ref named like an Object.prototype property as a project the member does not have', async () => {
    for (const ref of ['constructor', 'toString', '__proto__']) {
      expect((await get(`/api/pg-meta/${ref}/tables`)).status).toBe(200);
    }
    expect(upstreams.statusCalls).toEqual([]);
  });

  it('tells a non-member nothing: the service answers them as it would', async () => {
    upstreams.projectStatuses.set('paused', 'INACTIVE');
    expect((await get('/api/pg-meta/paused/tables', 'tok-stranger')).status).toBe(200);
    expect(upstreams.statusCalls).toEqual([]);
  });

  it('forwards when the project is unknown or the platform fails, caching neither failure', async () => {
    upstreams.projectStatuses.set('flaky', 'fail');
    expect((await get('/api/pg-meta/flaky/tables')).status).toBe(200);
    expect((await get('/api/pg-meta/gone/tables')).status).toBe(200);
    expect(upstreams.seen.map((s) => s.url)).toEqual(['/flaky/tables', '/gone/tables']);
    upstreams.projectStatuses.set('flaky', 'INACTIVE');
    expect((await get('/api/pg-meta/flaky/tables')).status).toBe(503);
  });
});

describe('the status cache', () => {
  it('asks the platform once per project while cached', async () => {
    upstreams.projectStatuses.set('cached', 'ACTIVE_HEALTHY');
    await Promise.all([get('/api/pg-meta/cached/tables'), get('/api/storage/cached/buckets')]);
    await get('/api/pg-meta/cached/schemas');
    expect(upstreams.statusCalls).toEqual(['cached']);
  });

  it('forgets a project’s status when a write to it goes through (pause, restore, delete)', async () => {
    upstreams.projectStatuses.set('toggled', 'ACTIVE_HEALTHY');
    expect((await get('/api/pg-meta/toggled/tables')).status).toBe(200);
    upstreams.projectStatuses.set('toggled', 'INACTIVE');
    expect((await get('/api/pg-meta/toggled/tables')).status).toBe(200);
    expect((await post('/api/platform/projects/toggled/pause')).status).toBe(200);
    expect((await get('/api/pg-meta/toggled/tables')).status).toBe(503);
    upstreams.projectStatuses.set('toggled', 'ACTIVE_HEALTHY');
    expect((await post('/api/platform/projects/toggled/restore')).status).toBe(200);
    expect((await get('/api/pg-meta/toggled/tables')).status).toBe(200);
    expect(upstreams.statusCalls).toEqual(['toggled', 'toggled', 'toggled']);
  });

  it('forgets the writer’s session when a project is created, so its identity names the new project at once', async () => {
    await get('/api/platform/projects', 'tok-creator');
    await get('/api/platform/projects', 'tok-creator');
    expect(upstreams.resolveCalls).toEqual(['tok-creator']);
    await post('/api/platform/projects', 'tok-creator');
    await get('/api/platform/projects', 'tok-creator');
    expect(upstreams.resolveCalls).toEqual(['tok-creator', 'tok-creator']);
  });
});
