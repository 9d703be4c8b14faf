import { appendFile, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ErrorReply, logsRoutes, LogsMessages, type LogEventInput, type OrgRole, type SourceEventsPage } from '@dash/contracts';
import { serviceHeaders, TEST_SECRET, userHeaders } from '@dash/service-kit/dist/testing';
import { buildApp } from '../src/app';
import { PartitionManager } from '../src/db/partitions';
import { PostgresLogTailer } from '../src/postgres-tail';
import { ProjectDatabaseMap } from '../src/project-databases';
import { sweepExpiredPartitions } from '../src/retention';
import { dayKey } from '../src/sql/partitions';
import { COLLECTION_EVENTS_TABLE } from '../src/sql/warehouse';
import { contractValidator, setupPlatform, type Platform } from './helpers';

let p: Platform;
const check = contractValidator();
const REF = 'src-ref';
const MIN = 60_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

beforeAll(async () => {
  p = await setupPlatform();
});

afterAll(async () => {
  await p.close();
});

const http = (timestamp: string, source: 'edge' | 'storage' | 'postgrest', path: string, status: number, method = 'GET', ref = REF): LogEventInput => ({
  source,
  project_ref: ref,
  timestamp,
  event_message: `${method} ${path} ${status}`,
  metadata: { method, path, status, duration_ms: 2 },
});

async function ingest(events: LogEventInput[]) {
  const res = await p.app.inject({ method: 'POST', url: '/internal/events', headers: serviceHeaders(), payload: { events } });
  expect(res.statusCode).toBe(200);
}

async function list(source: string, query = '', headers: Record<string, string> = userHeaders({ [REF]: 'owner' }), app = p.app, ref = REF) {
  const res = await app.inject({ method: 'GET', url: `/${ref}/sources/${source}/events${query}`, headers });
  return { status: res.statusCode, body: res.json() as SourceEventsPage & { message?: string } };
}

const paths = (page: SourceEventsPage) => page.events.map((e) => String(e.metadata.path ?? e.event_message));

describe('GET /:ref/sources/:source/events', () => {
  beforeAll(async () => {
    await ingest([
      http(ago(50 * MIN), 'edge', '/rest/a', 200),
      http(ago(40 * MIN), 'edge', '/rest/b', 404, 'POST'),
      http(ago(30 * MIN), 'edge', '/rest/50%_off', 500),
      http(ago(20 * MIN), 'edge', '/rest/5000', 201, 'POST'),
      http(ago(10 * MIN), 'edge', '/other-project', 200, 'GET', 'other-ref'),
      http(ago(5 * MIN), 'storage', '/object/avatars/a.png', 200, 'PUT'),
      http(ago(3 * 86_400_000), 'edge', '/three-days-old', 200),
      { source: 'postgres', project_ref: REF, timestamp: ago(15 * MIN), event_message: 'relation "nope" does not exist', metadata: { error_severity: 'ERROR' } },
      { source: 'postgres', project_ref: REF, timestamp: ago(14 * MIN), event_message: 'connection authorized: user=x', metadata: { error_severity: 'LOG' } },
      { source: 'auth', project_ref: REF, timestamp: ago(13 * MIN), event_message: 'Sign-in failed', metadata: { action: 'login_failed', status: 401, level: 'warning' } },
    ]);
  });

  it('lists one source of one project, newest first, within its retention', async () => {
    const { status, body } = await list('edge');
    expect(status).toBe(200);
    expect(paths(body)).toEqual(['/rest/5000', '/rest/50%_off', '/rest/b', '/rest/a', '/three-days-old']);
    expect(body.retention_days).toBe(7);
    expect(body.next).toBeNull();
    expect(body.events[0]).toMatchObject({ event_message: 'POST /rest/5000 201', metadata: { method: 'POST', status: 201, duration_ms: 2 } });
    expect(check(logsRoutes.sourceEvents.response, body)).toBeNull();
    expect(paths((await list('storage')).body)).toEqual(['/object/avatars/a.png']);
  });

  it('searches the message literally, case-insensitively', async () => {
    expect(paths((await list('edge', `?search=${encodeURIComponent('50%')}`)).body)).toEqual(['/rest/50%_off']);
    expect(paths((await list('edge', '?search=REST%2FB')).body)).toEqual(['/rest/b']);
    expect(paths((await list('edge', `?search=${encodeURIComponent("'")}`)).body)).toEqual([]);
  });

  it('filters by status class or code, and by method', async () => {
    expect(paths((await list('edge', '?status=2xx')).body)).toEqual(['/rest/5000', '/rest/a', '/three-days-old']);
    expect(paths((await list('edge', '?status=404')).body)).toEqual(['/rest/b']);
    expect(paths((await list('edge', '?method=POST')).body)).toEqual(['/rest/5000', '/rest/b']);
    expect(paths((await list('edge', '?method=POST&status=4xx')).body)).toEqual(['/rest/b']);
    const errors = await list('postgres', '?level=ERROR');
    expect(errors.body.events.map((e) => e.event_message)).toEqual(['relation "nope" does not exist']);
    expect((await list('auth', '?level=warning&status=4xx')).body.events).toHaveLength(1);
  });

  it('refuses filters a source does not have, and malformed ones, with a 400', async () => {
    const level = await list('edge', '?level=ERROR');
    expect(level.status).toBe(400);
    expect(level.body.message).toBe(LogsMessages.noFilter('level', 'API Gateway'));
    expect((await list('postgres', '?status=5xx')).status).toBe(400);
    expect((await list('postgres', '?level=loud')).body.message).toBe(LogsMessages.levelUnknown(['LOG', 'WARNING', 'ERROR', 'FATAL', 'PANIC']));
    expect((await list('edge', '?status=6xx')).status).toBe(400);
    expect((await list('edge', '?method=BREW')).status).toBe(400);
    expect((await list('edge', '?limit=0')).status).toBe(400);
    expect((await list('nope')).status).toBe(400);
    expect((await list('edge', `?before=${encodeURIComponent(ago(0))}`)).body.message).toBe(LogsMessages.cursorIncomplete);
    const reversed = await list('edge', `?from=${encodeURIComponent(ago(0))}&to=${encodeURIComponent(ago(MIN))}`);
    expect(reversed.body.message).toBe(LogsMessages.rangeReversed);
    expect(check(ErrorReply, reversed.body)).toBeNull();
  });

  it('applies a time range', async () => {
    const { body } = await list('edge', `?from=${encodeURIComponent(ago(45 * MIN))}&to=${encodeURIComponent(ago(25 * MIN))}`);
    expect(paths(body)).toEqual(['/rest/50%_off', '/rest/b']);
  });

  it('pages back by (timestamp, id) without skipping events of the same instant', async () => {
    const at = ago(60 * MIN + 1);
    await ingest(['/same-1', '/same-2', '/same-3'].map((path) => http(at, 'postgrest', path, 200)));
    const seen: string[] = [];
    let query = '?limit=2';
    for (;;) {
      const { body } = await list('postgrest', query);
      seen.push(...paths(body));
      if (!body.next) break;
      query = `?limit=2&before=${encodeURIComponent(body.next.before)}&before_id=${body.next.before_id}`;
    }
    expect(seen.sort()).toEqual(['/same-1', '/same-2', '/same-3']);
  });

  it('lets every member role read every source, and nobody else', async () => {
    for (const role of ['owner', 'administrator', 'developer', 'read_only'] as OrgRole[]) {
      for (const source of ['edge', 'postgres', 'postgrest', 'auth', 'storage', 'realtime', 'pooler']) {
        expect([role, source, (await list(source, '', userHeaders({ [REF]: role }))).status]).toEqual([role, source, 200]);
      }
    }
    expect((await list('auth', '', userHeaders({ 'other-ref': 'owner' }))).status).toBe(404);
    expect((await list('auth', '', serviceHeaders())).status).toBe(401);
    expect((await p.app.inject({ method: 'GET', url: `/${REF}/sources/edge/events` })).statusCode).toBe(401);
  });

  it('has no pooler logs in a self-hosted deployment', async () => {
    const selfHosted = buildApp({ secret: TEST_SECRET, pool: p.pool, mode: 'self-hosted' });
    await selfHosted.ready();
    try {
      const pooler = await list('pooler', '', undefined, selfHosted);
      expect(pooler.status).toBe(404);
      expect(pooler.body.message).toBe(LogsMessages.poolerHostedOnly);
      expect((await list('edge', '', undefined, selfHosted)).status).toBe(200);
    } finally {
      await selfHosted.close();
    }
  });
});

describe('GET /:ref/sources/:source/events/:id', () => {
  it('returns one event with its whole metadata, only in its project and source', async () => {
    const { body } = await list('auth');
    const event = body.events[0]!;
    const url = `/${REF}/sources/auth/events/${event.id}`;
    const owner = userHeaders({ [REF]: 'owner' });
    const found = await p.app.inject({ method: 'GET', url: `${url}?timestamp=${encodeURIComponent(event.timestamp)}`, headers: owner });
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual(event);
    expect(check(logsRoutes.sourceEvent.response, found.json())).toBeNull();
    expect((await p.app.inject({ method: 'GET', url, headers: owner })).json()).toEqual(event);
    const wrongSource = await p.app.inject({ method: 'GET', url: `/${REF}/sources/edge/events/${event.id}`, headers: owner });
    expect(wrongSource.statusCode).toBe(404);
    expect(wrongSource.json().message).toBe(LogsMessages.eventNotFound);
    const otherProject = await p.app.inject({ method: 'GET', url: `/other-ref/sources/auth/events/${event.id}`, headers: userHeaders({ 'other-ref': 'owner' }) });
    expect(otherProject.statusCode).toBe(404);
    expect((await p.app.inject({ method: 'GET', url: `/${REF}/sources/auth/events/not-a-uuid`, headers: owner })).statusCode).toBe(400);
  });
});

describe('retention', () => {
  const put = (days: unknown, role: OrgRole = 'owner', ref = 'ret-ref') =>
    p.app.inject({ method: 'PUT', url: `/${ref}/logs-retention`, headers: userHeaders({ [ref]: role }), payload: { retention_days: days } });

  it('is 7 days by default, set by project admins, and hides older events from reads', async () => {
    await ingest([http(ago(2 * 86_400_000), 'edge', '/two-days', 200, 'GET', 'ret-ref'), http(ago(MIN), 'edge', '/now', 200, 'GET', 'ret-ref')]);
    const get = await p.app.inject({ method: 'GET', url: '/ret-ref/logs-retention', headers: userHeaders({ 'ret-ref': 'read_only' }) });
    expect(get.json()).toEqual({ retention_days: 7 });
    expect((await put(1, 'developer')).statusCode).toBe(403);
    expect((await put(1, 'read_only')).statusCode).toBe(403);
    expect((await put(0)).statusCode).toBe(400);
    expect((await put(91)).statusCode).toBe(400);
    const set = await put(1, 'administrator');
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ retention_days: 1 });
    const { body } = await list('edge', '', userHeaders({ 'ret-ref': 'read_only' }), p.app, 'ret-ref');
    expect(paths(body)).toEqual(['/now']);
    expect(body.retention_days).toBe(1);
    // Asking for an older range does not reach past it either.
    const old = await list('edge', `?from=${encodeURIComponent(ago(3 * 86_400_000))}`, userHeaders({ 'ret-ref': 'owner' }), p.app, 'ret-ref');
    expect(paths(old.body)).toEqual(['/now']);
    const detail = await p.app.inject({ method: 'GET', url: `/${REF}/sources/edge/events/${(await list('edge', '?search=three-days')).body.events[0]!.id}`, headers: userHeaders({ [REF]: 'owner' }) });
    expect(detail.statusCode).toBe(200);
  });

  it('drops whole day partitions older than the longest retention of any project', async () => {
    const dayMs = 86_400_000;
    await ingest([http(ago(40 * dayMs), 'edge', '/forty-days', 200), http(ago(20 * dayMs), 'edge', '/twenty-days', 200)]);
    const partitionOf = async (pathText: string) =>
      (await p.pool.query(`select tableoid::regclass::text as part from logs.events where metadata ->> 'path' = $1`, [pathText])).rows[0]?.part as string | undefined;
    const forty = await partitionOf('/forty-days');
    const twenty = await partitionOf('/twenty-days');
    expect(forty).toMatch(/^logs\.events_\d{8}$/);

    await put(30, 'owner', 'long-ref');
    const manager = new PartitionManager(p.pool);
    // The collections' events age out with the same retention.
    const collections = new PartitionManager(p.pool, COLLECTION_EVENTS_TABLE);
    const oldDay = dayKey(new Date(ago(40 * dayMs)));
    await collections.ensure([oldDay, dayKey(new Date(ago(20 * dayMs)))]);
    const dropped = await sweepExpiredPartitions(p.pool, [manager, collections]);
    expect(dropped).toContain(`collection_events_${oldDay}`);
    expect(dropped).not.toContain(`collection_events_${dayKey(new Date(ago(20 * dayMs)))}`);
    expect(dropped).toContain(forty!.slice('logs.'.length));
    expect(dropped).not.toContain(twenty!.slice('logs.'.length));
    expect(await partitionOf('/forty-days')).toBeUndefined();
    expect(await partitionOf('/twenty-days')).toBe(twenty);
    // Today's events are untouched, and ingest still works after the sweep.
    expect(await partitionOf('/rest/a')).toBeDefined();
    await ingest([http(ago(40 * dayMs), 'edge', '/late-arrival', 200)]);
    expect(await partitionOf('/late-arrival')).toBe(forty);

    await put(7, 'owner', 'long-ref');
    expect(await sweepExpiredPartitions(p.pool, [manager])).toEqual(expect.arrayContaining([forty!.slice(5), twenty!.slice(5)]));
    expect(await partitionOf('/twenty-days')).toBeUndefined();
  });
});

describe('Postgres log tailer', () => {
  let dir: string;
  const databases = new ProjectDatabaseMap(async () => [{ ref: 'pg-ref', database: 'dash_project_pg_ref' }], 0);
  const line = (message: string, extra: Record<string, unknown> = {}) =>
    `${JSON.stringify({ timestamp: new Date().toISOString().replace('T', ' ').replace('Z', ' UTC'), dbname: 'dash_project_pg_ref', user: 'u', error_severity: 'ERROR', message, ...extra })}\n`;
  const tailer = () => new PostgresLogTailer({ dir, pool: p.pool, partitions: new PartitionManager(p.pool), databases });
  const messages = async () =>
    (await p.pool.query(`select event_message from logs.events where project_ref = 'pg-ref' and source = 'postgres' order by "timestamp", event_message`)).rows.map((r) => r.event_message as string);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pglog-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stores the project lines of each file once, resuming from its offset, across rotation and truncation', async () => {
    const first = path.join(dir, 'postgresql-2024-01-01_000000.json');
    await writeFile(first, line('one') + line('platform noise', { dbname: 'dash_platform' }) + line('no database', { dbname: undefined }) + 'not json\n');
    expect(await tailer().poll()).toBe(1);
    expect(await messages()).toEqual(['one']);

    // A line still being written is left for the next round.
    const two = line('two');
    await appendFile(first, two.slice(0, 20));
    const t = tailer();
    expect(await t.poll()).toBe(0);
    await appendFile(first, two.slice(20));
    expect(await t.poll()).toBe(1);

    // Rotation: a new file; a new tailer (a restart) reads only what is new.
    await writeFile(path.join(dir, 'postgresql-2024-01-02_000000.json'), line('three', { error_severity: 'LOG', message: 'duration: 1500.5 ms  statement: select pg_sleep(1.5)' }));
    expect(await tailer().poll()).toBe(1);
    expect(await tailer().poll()).toBe(0);
    const { rows } = await p.pool.query(`select metadata from logs.events where project_ref = 'pg-ref' and metadata ->> 'duration_ms' is not null`);
    expect(rows[0].metadata).toMatchObject({ duration_ms: 1500.5, statement: 'select pg_sleep(1.5)', error_severity: 'LOG', user_name: 'u' });

    // Truncated (log_truncate_on_rotation): read again from the start.
    await truncate(first, 0);
    await appendFile(first, line('four'));
    expect(await tailer().poll()).toBe(1);
    expect((await messages()).sort()).toEqual(['duration: 1500.5 ms  statement: select pg_sleep(1.5)', 'four', 'one', 'two']);

    // Offsets of files that are gone are forgotten.
    await rm(first);
    await tailer().poll();
    const offsets = await p.pool.query(`select file from logs.postgres_log_offsets order by file`);
    expect(offsets.rows).toEqual([{ file: 'postgresql-2024-01-02_000000.json' }]);
  });

  it('keeps its place when the platform cannot say which project a database is', async () => {
    const failing = new PostgresLogTailer({
      dir,
      pool: p.pool,
      partitions: new PartitionManager(p.pool),
      databases: new ProjectDatabaseMap(async () => {
        throw new Error('platform down');
      }),
    });
    await appendFile(path.join(dir, 'postgresql-2024-01-02_000000.json'), line('five'));
    await expect(failing.poll()).rejects.toThrow('platform down');
    expect(await tailer().poll()).toBe(1);
    expect(await messages()).toContain('five');
  });

  it('waits for a directory that does not exist yet', async () => {
    const missing = new PostgresLogTailer({ dir: path.join(dir, 'nope'), pool: p.pool, partitions: new PartitionManager(p.pool), databases });
    expect(await missing.poll()).toBe(0);
  });
});
