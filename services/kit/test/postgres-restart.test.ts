import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { Type } from '@sinclair/typebox';
import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import { access, defineRoute } from '@dash/contracts';
import { addRoute, createServiceApp, type ServiceApp } from '../src/app';
import { DATABASE_UNAVAILABLE } from '../src/connection-errors';
import { createDb, createPool } from '../src/db';
import { projectTransaction } from '../src/project-db';
import { ProjectPools } from '../src/project-pools';
import { OwnPostgres, TEST_SECRET } from '../src/testing';

// Issue 15 §5: Postgres restarted under load. A server of the test's own (the shared one serves other
// test files) restarts (fast stop, start) while writes arrive over HTTP through both kinds of kit pools:
// the platform's (Kysely on a pool) and a project's (ProjectPools, projectTransaction). Every request
// gets 200 or 503 with the message, every acknowledged write is in the table afterwards, and the
// service answers 200 again within 5 s of Postgres accepting connections.

const write = (url: string) =>
  defineRoute({
    service: 'platform',
    method: 'POST',
    url,
    body: Type.Object({ id: Type.Integer() }),
    response: Type.Object({ id: Type.Integer() }),
    access: access.public,
  });
const platformWrite = write('/platform-writes');
const projectWrite = write('/project-writes');

interface Outcome {
  id: number;
  sentAt: number;
  answeredAt: number;
  status?: number;
  message?: string;
  retryAfter?: string | null;
  /** The request itself failed: a dropped connection. */
  failure?: string;
}

const WORKERS = 16;
const DOWN_MS = 500;

let server: OwnPostgres;
let pool: pg.Pool;
let db: Kysely<unknown>;
let pools: ProjectPools;
let app: ServiceApp;
let baseUrl: string;

beforeAll(async () => {
  const started = await OwnPostgres.start();
  server = started.server;
  pool = createPool(started.url, 5);
  db = createDb<unknown>(pool);
  await sql`create table acks (id int primary key, via text not null)`.execute(db);
  await sql`create table acks_audit (id int primary key)`.execute(db);
  pools = new ProjectPools(async () => started.url, 5);
  app = createServiceApp({ name: 'restart-test', secret: TEST_SECRET });
  // Two statements in one transaction each: an acknowledged write must have both rows.
  addRoute(app, platformWrite, async ({ body }) => {
    await db.transaction().execute(async (trx) => {
      await sql`insert into acks (id, via) values (${body.id}, 'platform')`.execute(trx);
      await sql`insert into acks_audit (id) values (${body.id})`.execute(trx);
    });
    return { id: body.id };
  });
  addRoute(app, projectWrite, async ({ body }) => {
    await projectTransaction(pools, 'default', null, async (client) => {
      await client.query(`insert into acks (id, via) values ($1, 'project')`, [body.id]);
      await client.query('insert into acks_audit (id) values ($1)', [body.id]);
    });
    return { id: body.id };
  });
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app?.close();
  await pools?.closeAll();
  await db?.destroy();
  await server?.command('quit');
});

it('restarts Postgres under load: 200 or 503 with a message, no acknowledged write lost, back within 5 s', async () => {
  const outcomes: Outcome[] = [];
  let nextId = 1;
  let running = true;
  const send = async (id: number): Promise<Outcome> => {
    const sentAt = performance.now();
    try {
      const res = await fetch(`${baseUrl}${id % 2 ? platformWrite.url : projectWrite.url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id }),
      });
      const body = (await res.json()) as { message?: string };
      return { id, sentAt, answeredAt: performance.now(), status: res.status, message: body.message, retryAfter: res.headers.get('retry-after') };
    } catch (error) {
      return { id, sentAt, answeredAt: performance.now(), failure: String((error as Error).cause ?? error) };
    }
  };
  const worker = async () => {
    while (running) {
      const outcome = await send(nextId++);
      outcomes.push(outcome);
      // While the server is down, answers come at once: a short pause keeps the loop from spinning.
      if (outcome.status !== 200) await delay(20);
    }
  };
  const workers = Array.from({ length: WORKERS }, worker);

  while (outcomes.filter((o) => o.status === 200).length < 200) await delay(20);
  const stopAt = performance.now();
  await server.command('stop');
  await delay(DOWN_MS);
  await server.command('start');
  // From here Postgres accepts connections (the fixture answers once a connection succeeded).
  const upAt = performance.now();
  let firstOk: Outcome | undefined;
  while (!(firstOk = outcomes.find((o) => o.status === 200 && o.sentAt >= upAt)) && performance.now() - upAt < 10_000) await delay(10);
  await delay(1000);
  running = false;
  await Promise.all(workers);

  const acknowledged = outcomes.filter((o) => o.status === 200).map((o) => o.id);
  const unavailable = outcomes.filter((o) => o.status === 503);
  const other = outcomes.filter((o) => o.status !== 200 && o.status !== 503);
  const { rows } = await pool.query<{ id: number }>('select a.id from acks a join acks_audit using (id) where a.id = any($1)', [acknowledged]);
  const found = new Set(rows.map((r) => r.id));
  const lost = acknowledged.filter((id) => !found.has(id));
  const reconnectMs = firstOk ? Math.round(firstOk.answeredAt - upAt) : null;

  console.log(
    [
      'Postgres restart under load (kit service, two pools, 16 concurrent writers):',
      `  requests ${outcomes.length}, 200 ${acknowledged.length}, 503 ${unavailable.length}, other ${other.length}`,
      `  Postgres stopped ${Math.round(upAt - stopAt)} ms (fast stop, ${DOWN_MS} ms down, start)`,
      `  first 200 after Postgres accepted connections again: ${reconnectMs} ms (bound 5000)`,
      `  acknowledged writes lost: ${lost.length}`,
    ].join('\n'),
  );

  expect(other.map((o) => o.failure ?? `${o.status} ${o.message}`)).toEqual([]);
  // The restart was met by requests (not only before or after it), and each got the message.
  expect(unavailable.length).toBeGreaterThan(0);
  for (const o of unavailable) expect({ message: o.message, retryAfter: o.retryAfter }).toEqual({ message: DATABASE_UNAVAILABLE, retryAfter: '2' });
  expect(lost).toEqual([]);
  expect(reconnectMs).not.toBeNull();
  expect(reconnectMs!).toBeLessThan(5000);
});
