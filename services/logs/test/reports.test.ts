import { ErrorReply, LogTimeRangeMessages, reportRoutes, type OrgRole } from '@dash/contracts';
import { userHeaders } from '@dash/service-kit/dist/testing';
import { PartitionManager } from '../src/db/partitions';
import { daysOf } from '../src/sql/partitions';
import { contractValidator, setupPlatform, type Platform } from './helpers';

// The built-in API and storage reports over real events in logs.events, per role.

let p: Platform;
const check = contractValidator();
const REF = 'shop';

interface Seed {
  at: string;
  source: string;
  ref?: string;
  metadata: Record<string, unknown>;
}

/** Writes events straight into logs.events (any source, as the writers of every source would). */
async function seed(events: Seed[]): Promise<void> {
  await new PartitionManager(p.pool).ensure(daysOf(events.map((e) => new Date(e.at))));
  await p.pool.query(
    `insert into logs.events ("timestamp", source, project_ref, event_message, metadata)
     select * from unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::jsonb[])`,
    [events.map((e) => e.at), events.map((e) => e.source), events.map((e) => e.ref ?? REF), events.map(() => 'event'), events.map((e) => JSON.stringify(e.metadata))],
  );
}

const edge = (at: string, path: string, status: number, duration_ms: number, ref?: string): Seed => ({
  at,
  source: 'edge',
  ...(ref ? { ref } : {}),
  metadata: { method: 'GET', path, status, duration_ms, response_bytes: 10, query: null, user_agent: null },
});

const storage = (at: string, bucket: string | null, bytes: number, direction: 'in' | 'out' | null, status = 200): Seed => ({
  at,
  source: 'storage',
  metadata: { method: 'GET', path: '/object', status, duration_ms: 2, bucket, object: 'a.png', operation: 'object.get', bytes, direction, role: 'authenticated' },
});

beforeAll(async () => {
  p = await setupPlatform();
  await seed([
    // 10:00–10:59: four requests on /a (latencies 10, 20, 30, 40), one 500 on /b.
    edge('2026-03-01T10:05:00Z', '/a', 200, 10),
    edge('2026-03-01T10:10:00Z', '/a', 200, 20),
    edge('2026-03-01T10:15:00Z', '/a', 404, 30),
    edge('2026-03-01T10:20:00Z', '/a', 200, 40),
    edge('2026-03-01T10:30:00Z', '/b', 500, 100),
    // 11:00 is quiet; 12:00 has one request.
    edge('2026-03-01T12:00:00Z', '/c', 201, 5),
    // Outside the range, another project, another source, and a malformed event: none counts.
    edge('2026-03-01T09:59:59.999Z', '/early', 200, 1),
    edge('2026-03-01T13:00:00Z', '/late', 200, 1),
    edge('2026-03-01T10:00:00Z', '/other', 200, 1, 'blog'),
    { at: '2026-03-01T10:00:00Z', source: 'postgrest', metadata: { method: 'GET', path: '/rest', status: 200, duration_ms: 1 } },
    { at: '2026-03-01T10:40:00Z', source: 'edge', metadata: { path: '/odd', status: 'teapot', duration_ms: 'slow' } },
    storage('2026-03-01T10:01:00Z', 'avatars', 1000, 'in'),
    storage('2026-03-01T10:02:00Z', 'avatars', 300, 'out'),
    storage('2026-03-01T10:03:00Z', 'avatars', 200, 'out', 404),
    storage('2026-03-01T12:30:00Z', 'docs', 5000, 'out'),
    storage('2026-03-01T12:31:00Z', null, 0, null),
  ]);
});
afterAll(() => p.close());

const RANGE = '?from=2026-03-01T10:00:00.000Z&to=2026-03-01T13:00:00.000Z';

const get = (path: string, role: OrgRole = 'owner', ref = REF) =>
  p.app.inject({ method: 'GET', url: `/${ref}/reports/${path}`, headers: userHeaders({ [ref]: role }) });

describe('api-overview', () => {
  it('counts requests and errors per bucket, with empty buckets and latency percentiles', async () => {
    const res = await get(`api-overview${RANGE}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(check(reportRoutes.apiOverview.response, body)).toBeNull();
    expect(body).toMatchObject({ from: '2026-03-01T10:00:00.000Z', to: '2026-03-01T13:00:00.000Z', interval: 'minute' });
    expect(body.totals).toEqual({ requests: 7, errors: 2 });
    expect(body.series).toHaveLength(180);
    const at = (iso: string) => body.series.find((point: { time: string }) => point.time === iso);
    expect(at('2026-03-01T10:05:00.000Z')).toEqual({ time: '2026-03-01T10:05:00.000Z', requests: 1, errors: 0, p50_ms: 10, p95_ms: 10, p99_ms: 10 });
    expect(at('2026-03-01T10:30:00.000Z')).toMatchObject({ requests: 1, errors: 1, p50_ms: 100 });
    // The malformed event counts as a request, without a status or a latency.
    expect(at('2026-03-01T10:40:00.000Z')).toEqual({ time: '2026-03-01T10:40:00.000Z', requests: 1, errors: 0, p50_ms: null, p95_ms: null, p99_ms: null });
    expect(at('2026-03-01T11:00:00.000Z')).toEqual({ time: '2026-03-01T11:00:00.000Z', requests: 0, errors: 0, p50_ms: null, p95_ms: null, p99_ms: null });
    expect(body.top_paths[0]).toEqual({ path: '/a', requests: 4, errors: 1, avg_ms: 25 });
    expect(body.top_paths.map((r: { path: string }) => r.path)).toEqual(['/a', '/b', '/c', '/odd']);
    expect(body.status_codes).toEqual([
      { status: 200, requests: 3 },
      { status: 201, requests: 1 },
      { status: 404, requests: 1 },
      { status: 500, requests: 1 },
    ]);
  });

  it('interpolates percentiles within an hour bucket', async () => {
    const res = await get('api-overview?from=2026-03-01T10:00:00.000Z&to=2026-03-01T14:00:00.000Z');
    const body = res.json();
    expect(body.interval).toBe('hour');
    expect(body.series.map((s: { time: string }) => s.time)).toEqual([
      '2026-03-01T10:00:00.000Z',
      '2026-03-01T11:00:00.000Z',
      '2026-03-01T12:00:00.000Z',
      '2026-03-01T13:00:00.000Z',
    ]);
    // 10:00–10:59: six requests (one without a latency); latencies 10, 20, 30, 40, 100: p50 30, p95 88, p99 97.6 (linear interpolation).
    const first = body.series[0];
    expect(first).toMatchObject({ requests: 6, errors: 2, p50_ms: 30 });
    expect(first.p95_ms).toBeCloseTo(88);
    expect(first.p99_ms).toBeCloseTo(97.6);
    expect(body.series[3]).toMatchObject({ requests: 1, errors: 0 });
  });

  it('is for members with analytics read; another project\'s member gets nothing', async () => {
    for (const role of ['owner', 'administrator', 'developer', 'read_only'] as const) {
      expect((await get(`api-overview${RANGE}`, role)).statusCode).toBe(200);
    }
    // A member of another project learns nothing about this one (the kit answers 404).
    const outsider = await p.app.inject({ method: 'GET', url: `/${REF}/reports/api-overview${RANGE}`, headers: userHeaders({ blog: 'owner' }) });
    expect(outsider.statusCode).toBe(404);
    expect((await p.app.inject({ method: 'GET', url: `/${REF}/reports/api-overview${RANGE}` })).statusCode).toBe(401);
  });

  it('refuses a backwards, too long or malformed range with a clear 400', async () => {
    const backwards = await get('api-overview?from=2026-03-02T00:00:00.000Z&to=2026-03-01T00:00:00.000Z');
    expect(backwards.statusCode).toBe(400);
    expect(check(ErrorReply, backwards.json())).toBeNull();
    expect(backwards.json().message).toBe(LogTimeRangeMessages.endBeforeStart);
    const long = await get('api-overview?from=2026-01-01T00:00:00.000Z&to=2026-03-01T00:00:00.000Z');
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(LogTimeRangeMessages.tooLong);
    expect((await get('api-overview?from=yesterday&to=2026-03-01T00:00:00.000Z')).statusCode).toBe(400);
    expect((await get('api-overview?range=2d')).statusCode).toBe(400);
  });
});

describe('storage', () => {
  it('sums requests and bytes in and out per bucket and over time', async () => {
    const res = await get(`storage${RANGE}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(check(reportRoutes.storage.response, body)).toBeNull();
    expect(body.totals).toEqual({ requests: 5, bytes_in: 1000, bytes_out: 5500 });
    expect(body.buckets).toEqual([
      { bucket: 'avatars', requests: 3, errors: 1, bytes_in: 1000, bytes_out: 500 },
      { bucket: 'docs', requests: 1, errors: 0, bytes_in: 0, bytes_out: 5000 },
      { bucket: null, requests: 1, errors: 0, bytes_in: 0, bytes_out: 0 },
    ]);
    expect(body.series.find((s: { time: string }) => s.time === '2026-03-01T10:01:00.000Z')).toEqual({
      time: '2026-03-01T10:01:00.000Z',
      requests: 1,
      bytes_in: 1000,
      bytes_out: 0,
    });
  });

  it('needs the storage permission, which every role has; outsiders are refused', async () => {
    for (const role of ['owner', 'administrator', 'developer', 'read_only'] as const) {
      expect((await get(`storage${RANGE}`, role)).statusCode).toBe(200);
    }
    const outsider = await p.app.inject({ method: 'GET', url: `/${REF}/reports/storage${RANGE}`, headers: userHeaders({ blog: 'developer' }) });
    expect(outsider.statusCode).toBe(404);
  });
});
