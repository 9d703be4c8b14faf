import { ErrorReply, logsRoutes, ServiceMessages, type EdgeLogEvent, type LogEventInput } from '@dash/contracts';
import { serviceHeaders, userHeaders } from '@dash/service-kit/dist/testing';
import { migrateLogs } from '../src/db/migrations';
import { edgeLogsQuery } from '../src/sql/events';
import { contractValidator, setupPlatform, type Platform } from './helpers';

let p: Platform;
const check = contractValidator();

beforeAll(async () => {
  p = await setupPlatform();
});

afterAll(async () => {
  await p.close();
});

const edge = (timestamp: string, ref: string | null, path: string, status = 200): LogEventInput => ({
  source: 'edge',
  project_ref: ref,
  timestamp,
  event_message: `GET ${path} ${status}`,
  metadata: { method: 'GET', path, status, duration_ms: 3.5 },
});

async function ingest(events: LogEventInput[], app = p.app, headers: Record<string, string> = serviceHeaders()) {
  return app.inject({ method: 'POST', url: '/internal/events', headers, payload: { events } });
}

async function partitions(): Promise<string[]> {
  const { rows } = await p.pool.query<{ name: string }>(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = 'logs.events'::regclass order by 1`,
  );
  return rows.map((r) => r.name);
}

async function edgeLogs(ref: string, query = '', headers: Record<string, string> = userHeaders({ [ref]: 'owner' })) {
  const res = await p.app.inject({ method: 'GET', url: `/${ref}/edge-logs${query}`, headers });
  return { status: res.statusCode, body: res.json() as { events: EdgeLogEvent[]; message?: string } };
}

describe('schema', () => {
  it('migrates twice without change', async () => {
    const before = await p.pool.query(`select name from logs.kysely_migration order by name`);
    await migrateLogs(p.db);
    const after = await p.pool.query(`select name from logs.kysely_migration order by name`);
    expect(after.rows).toEqual(before.rows);
    expect(after.rows).toEqual([{ name: '0001_events' }]);
    const { rows } = await p.pool.query(`select relkind from pg_class where oid = 'logs.events'::regclass`);
    expect(rows[0].relkind).toBe('p');
  });
});

describe('POST /internal/events', () => {
  it('creates one partition per UTC day of the batch', async () => {
    const res = await ingest([
      edge('2024-03-01T23:59:00Z', 'proj-a', '/late'),
      edge('2024-03-02T00:01:00Z', 'proj-a', '/early'),
      { source: 'service', project_ref: null, timestamp: '2024-03-02T08:00:00+02:00', event_message: 'started', metadata: { level: 'info' } },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accepted: 3 });
    expect(await partitions()).toEqual(['events_20240301', 'events_20240302']);
    const { rows } = await p.pool.query(
      `select tableoid::regclass::text as part, source, project_ref, metadata from logs.events order by "timestamp"`,
    );
    expect(rows).toEqual([
      { part: 'logs.events_20240301', source: 'edge', project_ref: 'proj-a', metadata: { method: 'GET', path: '/late', status: 200, duration_ms: 3.5 } },
      { part: 'logs.events_20240302', source: 'edge', project_ref: 'proj-a', metadata: { method: 'GET', path: '/early', status: 200, duration_ms: 3.5 } },
      { part: 'logs.events_20240302', source: 'service', project_ref: null, metadata: { level: 'info' } },
    ]);
  });

  it('adds no partition for days it already has, and copes with another process creating the same day', async () => {
    await ingest([edge('2024-03-01T12:00:00Z', 'proj-a', '/again')]);
    expect(await partitions()).toEqual(['events_20240301', 'events_20240302']);

    const other = await p.extraApp();
    const batches = [0, 1, 2, 3].map((i) => [edge(`2024-03-05T0${i}:00:00Z`, 'proj-b', `/race${i}`)]);
    const replies = await Promise.all(batches.map((batch, i) => ingest(batch, i % 2 === 0 ? p.app : other)));
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await partitions()).toEqual(['events_20240301', 'events_20240302', 'events_20240305']);
    const { rows } = await p.pool.query(`select count(*)::int as n from logs.events where project_ref = 'proj-b'`);
    expect(rows[0].n).toBe(4);
  });

  it('recreates a remembered partition that was dropped', async () => {
    await ingest([edge('2024-03-06T00:00:00Z', 'proj-c', '/one')]);
    await p.pool.query(`drop table logs.events_20240306`);
    const res = await ingest([edge('2024-03-06T01:00:00Z', 'proj-c', '/two')]);
    expect(res.statusCode).toBe(200);
    expect(await partitions()).toContain('events_20240306');
  });

  it('rejects values Postgres cannot store with a 400', async () => {
    const res = await ingest([{ ...edge('2024-03-01T01:00:00Z', 'proj-a', '/nul'), event_message: 'bad \u0000 byte' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('22021');
  });

  it('is only for services', async () => {
    const asUser = await ingest([edge('2024-03-01T01:00:00Z', 'proj-a', '/x')], p.app, userHeaders({ 'proj-a': 'owner' }));
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json().message).toBe(ServiceMessages.internalOnly);
    const anonymous = await p.app.inject({ method: 'POST', url: '/internal/events', payload: { events: [] } });
    expect(anonymous.statusCode).toBe(401);
    const empty = await ingest([]);
    expect(empty.statusCode).toBe(400);
  });
});

describe('GET /:ref/edge-logs', () => {
  beforeAll(async () => {
    await ingest([
      edge('2024-04-10T10:00:00Z', 'logs-ref', '/a'),
      edge('2024-04-10T11:00:00Z', 'logs-ref', '/b', 404),
      edge('2024-04-10T12:00:00Z', 'logs-ref', '/c', 500),
      edge('2024-04-10T12:30:00Z', 'other-ref', '/not-mine'),
      { ...edge('2024-04-10T12:45:00Z', 'logs-ref', '/service'), source: 'service' },
      edge('2024-04-02T12:00:00Z', 'logs-ref', '/too-old'),
    ]);
  });

  it('returns this project’s edge events, newest first', async () => {
    const { status, body } = await edgeLogs('logs-ref', '?before=2024-04-11T00:00:00Z');
    expect(status).toBe(200);
    expect(body.events.map((e) => e.path)).toEqual(['/c', '/b', '/a']);
    expect(body.events[0]).toMatchObject({
      timestamp: '2024-04-10T12:00:00.000Z',
      method: 'GET',
      path: '/c',
      status: 500,
      duration_ms: 3.5,
      event_message: 'GET /c 500',
    });
    expect(body.events[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(check(logsRoutes.edgeLogs.response, body)).toBeNull();
  });

  it('pages back with before and limit', async () => {
    const first = await edgeLogs('logs-ref', '?before=2024-04-11T00:00:00Z&limit=2');
    expect(first.body.events.map((e) => e.path)).toEqual(['/c', '/b']);
    const next = await edgeLogs('logs-ref', `?before=${encodeURIComponent(first.body.events[1]!.timestamp)}&limit=2`);
    expect(next.body.events.map((e) => e.path)).toEqual(['/a']);
  });

  it('only looks at the 7 days before `before`', async () => {
    const { body } = await edgeLogs('logs-ref', '?before=2024-04-11T00:00:00Z');
    expect(body.events.map((e) => e.path)).not.toContain('/too-old');
    const older = await edgeLogs('logs-ref', '?before=2024-04-03T00:00:00Z');
    expect(older.body.events.map((e) => e.path)).toEqual(['/too-old']);
  });

  it('scans only the partitions of that window', async () => {
    const q = edgeLogsQuery({ ref: 'logs-ref', before: new Date('2024-03-03T00:00:00Z'), limit: 10 });
    const { rows } = await p.pool.query(`explain ${q.text}`, q.values);
    const plan = rows.map((r) => r['QUERY PLAN'] as string).join('\n');
    expect(plan).toMatch(/events_20240301/);
    expect(plan).toMatch(/events_20240302/);
    expect(plan).not.toMatch(/events_20240410|events_20240402|events_20240305/);
  });

  it('defaults to now, so recent events show without `before`', async () => {
    const recent = new Date(Date.now() - 60_000).toISOString();
    await ingest([edge(recent, 'now-ref', '/recent')]);
    const { body } = await edgeLogs('now-ref');
    expect(body.events.map((e) => e.path)).toEqual(['/recent']);
  });

  it('lets a read_only member read logs and hides other projects', async () => {
    const readOnly = await edgeLogs('logs-ref', '?before=2024-04-11T00:00:00Z', userHeaders({ 'logs-ref': 'read_only' }));
    expect(readOnly.status).toBe(200);
    expect(readOnly.body.events).toHaveLength(3);
    const outsider = await edgeLogs('logs-ref', '', userHeaders({ 'other-ref': 'owner' }));
    expect(outsider.status).toBe(404);
    expect(check(ErrorReply, outsider.body)).toBeNull();
    const anonymous = await p.app.inject({ method: 'GET', url: '/logs-ref/edge-logs' });
    expect(anonymous.statusCode).toBe(401);
    const service = await edgeLogs('logs-ref', '', serviceHeaders());
    expect(service.status).toBe(401);
  });

  it('validates the query', async () => {
    expect((await edgeLogs('logs-ref', '?limit=0')).status).toBe(400);
    expect((await edgeLogs('logs-ref', '?before=yesterday')).status).toBe(400);
  });
});

describe('contract', () => {
  it('ingest replies match the contract', async () => {
    const res = await ingest([edge('2024-04-10T09:00:00Z', 'c-ref', '/c')]);
    expect(check(logsRoutes.ingest.response, res.json())).toBeNull();
    const denied = await ingest([edge('2024-04-10T09:00:00Z', 'c-ref', '/c')], p.app, userHeaders({ 'c-ref': 'owner' }));
    expect(check(ErrorReply, denied.json())).toBeNull();
  });

  it('edge log replies match the contract', async () => {
    const { status, body } = await edgeLogs('c-ref', '?before=2024-04-11T00:00:00Z');
    expect(status).toBe(200);
    expect(body.events).toHaveLength(1);
    expect(check(logsRoutes.edgeLogs.response, body)).toBeNull();
  });
});
