import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { LogEventInput } from '@dash/contracts';
import { waitUntil } from '@dash/service-kit/dist/testing';
import { deadUrl, makeShellDir, startGateway, startUpstreams, type RunningGateway, type Upstreams } from './stubs';

// The logs service validates ingested events against the contract (date-time formats included).
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validEvent = ajv.compile(JSON.parse(JSON.stringify(LogEventInput)) as object);

let upstreams: Upstreams;
let shell: ReturnType<typeof makeShellDir>;

beforeAll(async () => {
  upstreams = await startUpstreams();
  shell = makeShellDir();
});
afterAll(async () => {
  await upstreams.close();
  shell.remove();
});
beforeEach(() => {
  upstreams.events.length = 0;
  upstreams.ingestCalls = 0;
  upstreams.ingestFailure = null;
});


const metadataOf = (event: LogEventInput) =>
  event.metadata as { method: string; path: string; status: number; duration_ms: number; query: string | null; user_agent: string | null };

describe('edge logs', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway(upstreams.urls, { shellDir: shell.dir, edgeLogs: { flushIntervalMs: 50 } });
  });
  afterAll(() => gateway.close());

  it('posts an edge event for every request, with the contract fields', async () => {
    await fetch(`${gateway.url}/api/pg-meta/default/tables?included_schemas=public&limit=10`, { headers: { 'user-agent': 'edge-test/1.0' } });
    await fetch(`${gateway.url}/api/platform/projects/demo-1/permissions`);
    await fetch(`${gateway.url}/api/platform/organizations`);
    await fetch(`${gateway.url}/registry.json`);
    await fetch(`${gateway.url}/project/default/editor`);
    await fetch(`${gateway.url}/main.1a2b3c4d.js`);
    await fetch(`${gateway.url}/health`);
    await fetch(`${gateway.url}/api/nope/x`);
    await waitUntil(() => upstreams.events.length >= 8, 'eight events are posted');

    for (const event of upstreams.events) {
      expect({ valid: validEvent(event), errors: ajv.errorsText(validEvent.errors) }).toEqual({ valid: true, errors: 'No errors' });
    }
    const byPath = new Map(upstreams.events.map((e) => [metadataOf(e).path, e]));

    const tables = byPath.get('/api/pg-meta/default/tables')!;
    expect(tables).toMatchObject({
      source: 'edge',
      project_ref: 'default',
      event_message: 'GET /api/pg-meta/default/tables 200',
      metadata: { method: 'GET', path: '/api/pg-meta/default/tables', status: 200, query: 'included_schemas=public&limit=10', user_agent: 'edge-test/1.0' },
    });
    expect(metadataOf(tables).duration_ms).toBeGreaterThanOrEqual(0);
    expect(Math.abs(Date.parse(tables.timestamp) - Date.now())).toBeLessThan(10_000);

    expect(byPath.get('/api/platform/projects/demo-1/permissions')!.project_ref).toBe('demo-1');
    expect(byPath.get('/api/platform/organizations')!.project_ref).toBeNull();
    expect(byPath.get('/registry.json')!.event_message).toBe('GET /registry.json 200');
    expect(byPath.get('/project/default/editor')).toMatchObject({ project_ref: null, metadata: { status: 200, query: null } });
    expect(byPath.get('/main.1a2b3c4d.js')!.metadata).toMatchObject({ status: 200 });
    expect(byPath.get('/health')!.event_message).toBe('GET /health 200');
    expect(byPath.get('/api/nope/x')!.event_message).toBe('GET /api/nope/x 404');
    // The gateway's own calls to the logs service are not requests it served.
    expect(upstreams.events.some((e) => metadataOf(e).path.includes('/internal/events'))).toBe(false);
  });

  it('logs refused requests too', async () => {
    await fetch(`${gateway.url}/api/storage/default/buckets`, { method: 'POST', headers: { origin: 'https://evil.example' } });
    await waitUntil(() => upstreams.events.length >= 1, 'an event is posted');
    expect(upstreams.events[0]).toMatchObject({ project_ref: 'default', event_message: 'POST /api/storage/default/buckets 403' });
  });

  it('drops and counts events the logs service refuses, without slowing requests', async () => {
    upstreams.ingestFailure = 500;
    const droppedBefore = gateway.app.edgeLogs.stats.dropped;
    const res = await fetch(`${gateway.url}/api/pg-meta/default/tables`);
    expect(res.status).toBe(200);
    await waitUntil(() => gateway.app.edgeLogs.stats.dropped > droppedBefore, 'the gateway drops an event');
    expect(upstreams.events).toHaveLength(0);
    expect(gateway.app.edgeLogs.buffered).toBe(0);
  });
});

describe('PostgREST logs', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    upstreams.sessions.set('cookie-dev', { user: { id: 'u-dev', email: 'dev@example.com', name: 'Dev' }, projects: { default: 'developer' } });
    gateway = await startGateway(upstreams.urls, { shellDir: shell.dir, edgeLogs: { flushIntervalMs: 50 } });
  });
  afterAll(() => gateway.close());

  it('are the rest service\'s: the gateway writes only edge events, for the dashboard\'s row routes and the data API alike', async () => {
    const cookie = { cookie: 'dash_session=cookie-dev' };
    const before = upstreams.events.length;
    await fetch(`${gateway.url}/api/pg-meta/default/tables/16384/rows/select`, { method: 'POST', headers: { ...cookie, 'content-type': 'application/json' }, body: '{}' });
    await fetch(`${gateway.url}/p/default/rest/v1/todos?select=id`, { headers: { apikey: 'key' } });
    await waitUntil(() => upstreams.events.length >= before + 2, 'the two edge events are posted');
    const events = upstreams.events.slice(before);
    expect(events.map((e) => e.source)).toEqual(['edge', 'edge']);
    expect(events.map((e) => metadataOf(e).path)).toEqual(['/api/pg-meta/default/tables/16384/rows/select', '/p/default/rest/v1/todos']);
  });
});

describe('edge log batching', () => {
  it('posts a batch as soon as 100 events wait, and the rest on close', async () => {
    const gateway = await startGateway(upstreams.urls, { edgeLogs: { flushIntervalMs: 60_000, batchSize: 100 } });
    try {
      for (let i = 0; i < 100; i++) await fetch(`${gateway.url}/api/pg-meta/default/tables?i=${i}`);
      await waitUntil(() => upstreams.ingestCalls === 1, 'one batch is posted');
      expect(upstreams.events).toHaveLength(100);
      for (let i = 0; i < 3; i++) await fetch(`${gateway.url}/api/logs/default/edge-logs`);
      expect(upstreams.ingestCalls).toBe(1);
    } finally {
      await gateway.close();
    }
    // onClose flushed the last three.
    expect(upstreams.ingestCalls).toBe(2);
    expect(upstreams.events).toHaveLength(103);
    expect(upstreams.events.slice(100).map((e) => e.event_message)).toEqual(Array(3).fill('GET /api/logs/default/edge-logs 200'));
  });

  it('drops and counts when the logs service is down', async () => {
    const gateway = await startGateway({ ...upstreams.urls, logs: await deadUrl() }, { edgeLogs: { flushIntervalMs: 30 } });
    try {
      const res = await fetch(`${gateway.url}/api/pg-meta/default/tables`);
      expect(res.status).toBe(200);
      await waitUntil(() => gateway.app.edgeLogs.stats.dropped >= 1, 'the gateway drops an event');
      expect(gateway.app.edgeLogs.stats.sent).toBe(0);
    } finally {
      await gateway.close();
    }
  });
});
