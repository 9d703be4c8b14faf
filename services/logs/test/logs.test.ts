import { ErrorReply, LOG_METADATA_MAX_DEPTH, LogIngestMessages, logsRoutes, ServiceMessages, type LogEventInput } from '@dash/contracts';
import { createDb, createPool, ensureServiceRoles } from '@dash/service-kit';
import { createTestDatabase, serviceHeaders, TEST_SECRET, userHeaders } from '@dash/service-kit/dist/testing';
import { migrateLogs } from '../src/db/migrations';
import { PartitionManager } from '../src/db/partitions';
import { sweepExpiredPartitions } from '../src/retention';
import { storeEvents } from '../src/store';
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

describe('schema', () => {
  it('migrates twice without change', async () => {
    const before = await p.pool.query(`select name from logs.kysely_migration order by name`);
    await migrateLogs(p.db);
    const after = await p.pool.query(`select name from logs.kysely_migration order by name`);
    expect(after.rows).toEqual(before.rows);
    expect(after.rows.map((r) => r.name)).toEqual(expect.arrayContaining(['0001_events', '0002_events_time_brin', '0003_project_settings', '0004_postgres_log_offsets']));
    const { rows } = await p.pool.query(`select relkind from pg_class where oid = 'logs.events'::regclass`);
    expect(rows[0].relkind).toBe('p');
  });

  it('passes a schema the superuser migrated and filled to the service role, which migrates, writes and sweeps it', async () => {
    const earlier = await createTestDatabase('logsold');
    const superuserPool = createPool(earlier.url);
    try {
      // As earlier starts did: migrated, and a day partition made, as the server's superuser.
      await migrateLogs(createDb<unknown>(superuserPool));
      await storeEvents(superuserPool, new PartitionManager(superuserPool), [
        { timestamp: new Date('2024-02-01T00:00:00Z'), source: 'edge', projectRef: 'old', eventMessage: 'before', metadata: {} },
      ]);
      const { connections } = await ensureServiceRoles(earlier.url, TEST_SECRET);
      const pool = createPool(connections.logs);
      try {
        await migrateLogs(createDb<unknown>(pool));
        const partitions = new PartitionManager(pool);
        await storeEvents(pool, partitions, [{ timestamp: new Date(), source: 'edge', projectRef: 'old', eventMessage: 'after', metadata: {} }]);
        expect((await pool.query(`select event_message from logs.events order by "timestamp"`)).rows).toEqual([{ event_message: 'before' }, { event_message: 'after' }]);
        expect(await sweepExpiredPartitions(pool, [partitions])).toEqual(['events_20240201']);
      } finally {
        await pool.end();
      }
    } finally {
      await superuserPool.end();
      await earlier.drop();
    }
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

  it('refuses metadata nested deeper than the limit with a 400 naming the event, however deep', async () => {
    const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
    const send = (depth: number) =>
      p.app.inject({
        method: 'POST',
        url: '/internal/events',
        headers: { ...serviceHeaders(), 'content-type': 'application/json' },
        payload: `{"events":[${JSON.stringify(edge('2024-03-07T00:00:00Z', 'proj-d', '/ok'))},
          {"source":"edge","project_ref":"proj-d","timestamp":"2024-03-07T00:01:00Z","event_message":"deep","metadata":${nested(depth)}}]}`,
      });
    for (const depth of [LOG_METADATA_MAX_DEPTH + 1, 10_000]) {
      const res = await send(depth);
      expect(res.json()).toMatchObject({ statusCode: 400, message: LogIngestMessages.metadataTooDeep(2) });
    }
    expect((await p.pool.query(`select count(*)::int as n from logs.events where project_ref = 'proj-d'`)).rows[0].n).toBe(0);
    expect((await send(LOG_METADATA_MAX_DEPTH)).statusCode).toBe(200);
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

describe('contract', () => {
  it('ingest replies match the contract', async () => {
    const res = await ingest([edge('2024-04-10T09:00:00Z', 'c-ref', '/c')]);
    expect(check(logsRoutes.ingest.response, res.json())).toBeNull();
    const denied = await ingest([edge('2024-04-10T09:00:00Z', 'c-ref', '/c')], p.app, userHeaders({ 'c-ref': 'owner' }));
    expect(check(ErrorReply, denied.json())).toBeNull();
  });
});
