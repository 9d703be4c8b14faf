import { createHash } from 'node:crypto';
import { LOG_METADATA_MAX_DEPTH, LogIngestMessages, ROLES, warehouseRoutes, WarehouseMessages, type EventCollection, type OrgRole, type WarehouseAccessToken } from '@dash/contracts';
import type { ServiceApp } from '@dash/service-kit';
import { asRole, TEST_SECRET } from '@dash/service-kit/dist/testing';
import { buildApp } from '../src/app';
import { contractValidator, setupPlatform, type Platform } from './helpers';

let p: Platform;
/** An app with small ingest limits, on the same database. */
let limited: ServiceApp;
const check = contractValidator();
const base = (ref = 'default') => `/${ref}/analytics/warehouse`;

beforeAll(async () => {
  p = await setupPlatform();
  limited = buildApp({ secret: TEST_SECRET, pool: p.pool, ingestLimits: { maxBodyBytes: 2_000, maxEvents: 5, eventsPerSecond: 1, burstEvents: 10 } });
  await limited.ready();
});
afterAll(async () => {
  await limited.close();
  await p.close();
});

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, role: OrgRole = 'owner', payload?: unknown, ref = 'default') {
  const res = await p.app.inject({ method, url, headers: asRole(role, ref), ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> & unknown[] };
}

async function createCollection(name: string, ref = 'default'): Promise<EventCollection> {
  const res = await call('POST', `${base(ref)}/collections`, 'owner', { name }, ref);
  expect(res.status).toBe(201);
  return res.body as unknown as EventCollection;
}

async function createToken(description = 'ci', ref = 'default'): Promise<WarehouseAccessToken & { token: string }> {
  const res = await call('POST', `${base(ref)}/access-tokens`, 'owner', { description }, ref);
  expect(res.status).toBe(201);
  return res.body as unknown as WarehouseAccessToken & { token: string };
}

function ingest(token: string, body: string, options: { ref?: string; collection: string; type?: string; app?: ServiceApp; headers?: Record<string, string> }) {
  return (options.app ?? p.app).inject({
    method: 'POST',
    url: `/${options.ref ?? 'default'}/v1/collections/${options.collection}/events`,
    headers: { authorization: `Bearer ${token}`, 'content-type': options.type ?? 'application/json', ...options.headers },
    payload: body,
  });
}

async function storedEvents(collectionId: number) {
  const { rows } = await p.pool.query(
    `select "timestamp", event_message, metadata, tableoid::regclass::text as part from logs.collection_events where collection_id = $1 order by "timestamp", event_message`,
    [collectionId],
  );
  return rows as { timestamp: Date; event_message: string; metadata: Record<string, unknown>; part: string }[];
}

describe('schema', () => {
  it('keeps collection events in a table partitioned by day with a BRIN index on the time', async () => {
    const { rows } = await p.pool.query(
      `select c.relkind, (select array_agg(am.amname::text order by am.amname) from pg_index i join pg_class ic on ic.oid = i.indexrelid join pg_am am on am.oid = ic.relam where i.indrelid = c.oid) as methods
       from pg_class c where c.oid = 'logs.collection_events'::regclass`,
    );
    expect(rows[0]).toEqual({ relkind: 'p', methods: ['brin', 'btree'] });
  });
});

describe('collections', () => {
  it('creates, lists, renames and deletes, with the reply schemas of the contract', async () => {
    const created = await createCollection('  app-events ');
    expect(check(warehouseRoutes.createCollection.response, created)).toBeNull();
    expect(created).toMatchObject({ name: 'app-events', token: expect.stringMatching(/^[0-9a-f-]{36}$/) });

    const list = await call('GET', `${base()}/collections`, 'read_only');
    expect(list.status).toBe(200);
    expect(check(warehouseRoutes.listCollections.response, list.body)).toBeNull();
    expect(list.body).toEqual([created]);

    const renamed = await call('PATCH', `${base()}/collections/${created.token}`, 'developer', { name: 'renamed' });
    expect(renamed).toEqual({ status: 200, body: { ...created, name: 'renamed' } });

    expect(await call('DELETE', `${base()}/collections/${created.token}`, 'developer')).toEqual({ status: 200, body: { ok: true } });
    expect((await call('GET', `${base()}/collections`)).body).toEqual([]);
    const again = await call('DELETE', `${base()}/collections/${created.token}`);
    expect(again).toMatchObject({ status: 404, body: { message: WarehouseMessages.collectionNotFound } });
  });

  it('refuses a name another collection of the project has, on create and on rename; other projects may reuse it', async () => {
    const first = await createCollection('orders');
    const second = await createCollection('payments');
    const dup = await call('POST', `${base()}/collections`, 'owner', { name: 'orders' });
    expect(dup).toMatchObject({ status: 409, body: { message: 'Collection with the name orders already exists' } });
    const rename = await call('PATCH', `${base()}/collections/${second.token}`, 'owner', { name: 'orders' });
    expect(rename).toMatchObject({ status: 409, body: { message: 'Collection with the name orders already exists' } });
    expect((await call('POST', `${base('other')}/collections`, 'owner', { name: 'orders' }, 'other')).status).toBe(201);
    for (const c of [first, second]) await call('DELETE', `${base()}/collections/${c.token}`);
  });

  it('needs a name of at least one character that is not only spaces', async () => {
    expect((await call('POST', `${base()}/collections`, 'owner', { name: '' })).status).toBe(400);
    const blank = await call('POST', `${base()}/collections`, 'owner', { name: '   ' });
    expect(blank).toMatchObject({ status: 400, body: { message: WarehouseMessages.nameRequired } });
    const c = await createCollection('keep');
    const rename = await call('PATCH', `${base()}/collections/${c.token}`, 'owner', { name: ' ' });
    expect(rename).toMatchObject({ status: 400, body: { message: 'Collection name is required' } });
    await call('DELETE', `${base()}/collections/${c.token}`);
  });

  it("does not let one project's member see or change another project's collection", async () => {
    const c = await createCollection('private');
    // Member of `other` only, acting on `default`: the project does not exist for them.
    const res = await p.app.inject({ method: 'DELETE', url: `${base()}/collections/${c.token}`, headers: asRole('owner', 'other') });
    expect(res.statusCode).toBe(404);
    // Through their own project's path: not found either.
    expect((await call('PATCH', `${base('other')}/collections/${c.token}`, 'owner', { name: 'x' }, 'other')).status).toBe(404);
    expect((await call('DELETE', `${base('other')}/collections/${c.token}`, 'owner', undefined, 'other')).status).toBe(404);
    await call('DELETE', `${base()}/collections/${c.token}`);
  });

  it.each(ROLES)('as %s: reads with analytics read, writes with tenant SQL admin write', async (role) => {
    const c = await createCollection(`perm-${role}`);
    const canWrite = role !== 'read_only';
    expect((await call('GET', `${base()}/collections`, role)).status).toBe(200);
    expect((await call('GET', `${base()}/tenant`, role)).status).toBe(200);
    expect((await call('GET', `${base()}/access-tokens`, role)).status).toBe(200);
    const create = await call('POST', `${base()}/collections`, role, { name: `new-${role}` });
    const rename = await call('PATCH', `${base()}/collections/${c.token}`, role, { name: `renamed-${role}` });
    const token = await call('POST', `${base()}/access-tokens`, role, { description: role });
    expect([create.status, rename.status, token.status]).toEqual(canWrite ? [201, 200, 201] : [403, 403, 403]);
    const del = await call('DELETE', `${base()}/collections/${c.token}`, role);
    expect(del.status).toBe(canWrite ? 200 : 403);
    if (!canWrite) await call('DELETE', `${base()}/collections/${c.token}`);
    if (canWrite) await call('DELETE', `${base()}/collections/${(create.body as unknown as EventCollection).token}`);
  });

  it('answers the tenant as presence, with the ingest limits', async () => {
    const res = await call('GET', `${base()}/tenant`, 'read_only');
    expect(res.status).toBe(200);
    expect(check(warehouseRoutes.tenant.response, res.body)).toBeNull();
    expect(res.body).toEqual({ project_ref: 'default', ingest: { max_body_bytes: 5 * 1024 * 1024, max_events: 10_000, events_per_second: 50_000 } });
    expect((await p.app.inject({ method: 'GET', url: `${base()}/tenant` })).statusCode).toBe(401);
  });
});

describe('access tokens', () => {
  it('shows the secret once, stores only its sha256, lists without it, and deletes by id', async () => {
    const created = await createToken('deploy pipeline');
    expect(check(warehouseRoutes.createAccessToken.response, created)).toBeNull();
    expect(created.token).toMatch(/^dwh_[A-Za-z0-9_-]{43}$/);
    expect(created.hint).toBe(created.token.slice(0, 10));

    const { rows } = await p.pool.query(`select encode(token_hash, 'hex') as hash, created_by from logs.warehouse_access_tokens where id = $1`, [created.id]);
    expect(rows[0].hash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(rows[0].created_by).toBe('user-1');

    const list = await call('GET', `${base()}/access-tokens`, 'read_only');
    expect(check(warehouseRoutes.listAccessTokens.response, list.body)).toBeNull();
    const listed = (list.body as unknown as WarehouseAccessToken[]).find((t) => t.id === created.id);
    expect(listed).toEqual({ id: created.id, description: 'deploy pipeline', hint: created.hint, created_at: created.created_at });
    expect(JSON.stringify(list.body)).not.toContain(created.token);

    expect((await call('DELETE', `${base('other')}/access-tokens/${created.id}`, 'owner', undefined, 'other')).status).toBe(404);
    expect(await call('DELETE', `${base()}/access-tokens/${created.id}`, 'developer')).toEqual({ status: 200, body: { ok: true } });
    expect(await call('DELETE', `${base()}/access-tokens/${created.id}`)).toMatchObject({ status: 404, body: { message: WarehouseMessages.accessTokenNotFound } });
    expect((await call('DELETE', `${base()}/access-tokens/${created.id}`, 'read_only')).status).toBe(403);
  });
});

describe('ingest', () => {
  let collection: EventCollection;
  let token: string;
  beforeAll(async () => {
    collection = await createCollection('ingest');
    token = (await createToken('ingest')).token;
  });

  it('stores a JSON array: timestamp (or now), event_message or message, every other field as metadata', async () => {
    const now = Date.now();
    const at = new Date(now - 60_000).toISOString();
    const res = await ingest(
      token,
      JSON.stringify([
        { timestamp: at, event_message: 'user signed up', user_id: 7, plan: 'pro' },
        { message: 'no time given', metadata: { nested: true, level: 'info' }, level: 'warn' },
        { timestamp: now - 30_000 },
      ]),
      { collection: collection.token },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accepted: 3 });
    const rows = await storedEvents(collection.id);
    expect(rows.map((r) => [r.event_message, r.metadata])).toEqual([
      ['user signed up', { user_id: 7, plan: 'pro' }],
      ['', {}],
      ['no time given', { nested: true, level: 'warn' }],
    ]);
    expect(rows[0]!.timestamp.toISOString()).toBe(at);
    expect(Math.abs(rows[2]!.timestamp.getTime() - now)).toBeLessThan(60_000);
    expect(rows[0]!.part).toMatch(/^logs\.collection_events_\d{8}$/);
    await p.pool.query(`delete from logs.collection_events where collection_id = $1`, [collection.id]);
  });

  it('stores NDJSON, skipping blank lines, and names the line that is not JSON', async () => {
    const ok = await ingest(token, '{"message":"one"}\n\n{"message":"two","n":2}\n', { collection: collection.token, type: 'application/x-ndjson' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ accepted: 2 });
    expect((await storedEvents(collection.id)).map((r) => r.event_message).sort()).toEqual(['one', 'two']);

    const bad = await ingest(token, '{"message":"one"}\n{"message": oops}\n', { collection: collection.token, type: 'application/x-ndjson' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^Line 2 is not valid JSON: /);
    const notObject = await ingest(token, '{"message":"one"}\n[1]\n', { collection: collection.token, type: 'application/x-ndjson' });
    expect(notObject.json()).toMatchObject({ statusCode: 400, message: WarehouseMessages.notAnObject(2) });
    expect((await storedEvents(collection.id)).length).toBe(2);
    await p.pool.query(`delete from logs.collection_events where collection_id = $1`, [collection.id]);
  });

  it('refuses bad JSON, no events, wrong field types, timestamps out of range and other content types with 4xx', async () => {
    const send = (body: string, type?: string) => ingest(token, body, { collection: collection.token, ...(type ? { type } : {}) });
    expect((await send('[{"message":')).json()).toMatchObject({ statusCode: 400, message: expect.stringMatching(/^The body is not valid JSON: /) });
    expect((await send('[]')).json()).toMatchObject({ statusCode: 400, message: WarehouseMessages.noEvents });
    expect((await send('[{"message": 5}]')).statusCode).toBe(400);
    expect((await send('[{"timestamp": "yesterday"}]')).statusCode).toBe(400);
    expect((await send('[{"message":"a"},{"timestamp": "2001-01-01T00:00:00Z"}]')).json()).toMatchObject({ statusCode: 400, message: WarehouseMessages.badTimestamp(2) });
    const future = new Date(Date.now() + 2 * 3_600_000).toISOString();
    expect((await send(JSON.stringify([{ timestamp: future }]))).json()).toMatchObject({ statusCode: 400, message: WarehouseMessages.badTimestamp(1) });
    expect((await send('hello', 'text/plain')).json()).toMatchObject({ statusCode: 415, message: WarehouseMessages.unsupportedType });
    // A NUL character Postgres cannot store in text: the sender's mistake.
    expect((await send(JSON.stringify([{ message: 'a\u0000b' }]))).statusCode).toBe(400);
    // Fields nested deeper than the metadata may be, in the event's own fields or in `metadata`.
    const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    expect((await send(`[{"message":"a"},{"trace":${deep(10_000)}}]`)).json()).toMatchObject({ statusCode: 400, message: LogIngestMessages.metadataTooDeep(2) });
    expect((await send(`{"metadata":{"trace":${deep(LOG_METADATA_MAX_DEPTH)}}}`)).json()).toMatchObject({ statusCode: 400, message: LogIngestMessages.metadataTooDeep(1) });
    expect(await storedEvents(collection.id)).toEqual([]);
  });

  it('needs a token of this project, and a collection of this project', async () => {
    const noAuth = await p.app.inject({ method: 'POST', url: `/default/v1/collections/${collection.token}/events`, headers: { 'content-type': 'application/json' }, payload: '[{}]' });
    expect(noAuth.json()).toMatchObject({ statusCode: 401, message: WarehouseMessages.missingToken });
    expect((await ingest('dwh_nope', '[{}]', { collection: collection.token })).json()).toMatchObject({ statusCode: 401, message: WarehouseMessages.invalidToken });

    // A dashboard session is no ingest credential.
    const session = await p.app.inject({ method: 'POST', url: `/default/v1/collections/${collection.token}/events`, headers: { ...asRole('owner'), 'content-type': 'application/json' }, payload: '[{}]' });
    expect(session.statusCode).toBe(401);

    const otherToken = (await createToken('other', 'other')).token;
    expect((await ingest(otherToken, '[{}]', { collection: collection.token })).statusCode).toBe(401);
    const otherCollection = await createCollection('theirs', 'other');
    expect((await ingest(token, '[{}]', { collection: otherCollection.token })).json()).toMatchObject({ statusCode: 404, message: WarehouseMessages.unknownCollection });
    expect((await ingest(token, '[{}]', { collection: 'not-a-uuid' })).statusCode).toBe(404);
    expect(await storedEvents(collection.id)).toEqual([]);
  });

  it('stops accepting a deleted token and a deleted collection at once', async () => {
    const t = await createToken('short-lived');
    const c = await createCollection('short-lived');
    expect((await ingest(t.token, '[{"message":"a"}]', { collection: c.token })).statusCode).toBe(200);
    await call('DELETE', `${base()}/access-tokens/${t.id}`);
    expect((await ingest(t.token, '[{"message":"b"}]', { collection: c.token })).statusCode).toBe(401);
    expect((await ingest(token, '[{"message":"c"}]', { collection: c.token })).statusCode).toBe(200);
    expect((await storedEvents(c.id)).length).toBe(2);
    await call('DELETE', `${base()}/collections/${c.token}`);
    expect((await ingest(token, '[{"message":"d"}]', { collection: c.token })).statusCode).toBe(404);
    // Deleting the collection deleted its events.
    expect(await storedEvents(c.id)).toEqual([]);
  });

  it("shows a project's collection events to the explorer's role through log_tables.collection_events, and nothing else", async () => {
    const mine = await createCollection('explorer-view');
    const theirs = await createCollection('explorer-view', 'other');
    const theirToken = (await createToken('x', 'other')).token;
    const at = new Date(Date.now() - 5 * 60_000).toISOString();
    expect((await ingest(token, JSON.stringify([{ timestamp: at, message: 'mine', k: 1 }]), { collection: mine.token })).statusCode).toBe(200);
    expect((await ingest(theirToken, JSON.stringify([{ timestamp: at, message: 'theirs' }]), { ref: 'other', collection: theirs.token })).statusCode).toBe(200);

    const client = await p.pool.connect();
    try {
      await client.query('begin read only');
      await client.query('set local role dash_logs_reader');
      await client.query(`select set_config('dash.project_ref', 'default', true), set_config('dash.range_from', $1, true), set_config('dash.range_to', $2, true)`, [
        new Date(Date.now() - 3_600_000).toISOString(),
        new Date().toISOString(),
      ]);
      const { rows } = await client.query(`select collection, event_message, metadata from log_tables.collection_events where collection = $1`, [mine.token]);
      expect(rows).toEqual([{ collection: mine.token, event_message: 'mine', metadata: { k: 1 } }]);
      const { rows: all } = await client.query(`select event_message from log_tables.collection_events`);
      expect(all.map((r) => r.event_message)).not.toContain('theirs');
      await client.query('savepoint s');
      await expect(client.query(`select * from logs.collection_events`)).rejects.toThrow(/permission denied/);
      await client.query('rollback to savepoint s');
      await expect(client.query(`select * from logs.collections`)).rejects.toThrow(/permission denied/);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  describe('limits', () => {
    it('refuses a body over the size limit with 413 before reading it', async () => {
      const big = JSON.stringify([{ message: 'x'.repeat(3_000) }]);
      const res = await ingest(token, big, { collection: collection.token, app: limited });
      expect(res.json()).toMatchObject({ statusCode: 413, message: WarehouseMessages.bodyTooLarge(2_000) });
    });

    it('refuses more events than a request may carry with 413', async () => {
      const six = Array.from({ length: 6 }, (_, i) => JSON.stringify({ message: `e${i}` })).join('\n');
      const res = await ingest(token, six, { collection: collection.token, app: limited, type: 'application/x-ndjson' });
      expect(res.json()).toMatchObject({ statusCode: 413, message: WarehouseMessages.tooManyEvents(5) });
    });

    it('limits each token to its rate with 429 and Retry-After, and other tokens are not affected', async () => {
      const t = (await createToken('rate')).token;
      const five = JSON.stringify(Array.from({ length: 5 }, (_, i) => ({ message: `r${i}` })));
      expect((await ingest(t, five, { collection: collection.token, app: limited })).statusCode).toBe(200);
      expect((await ingest(t, five, { collection: collection.token, app: limited })).statusCode).toBe(200);
      const refused = await ingest(t, five, { collection: collection.token, app: limited });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(/^Too many events for this access token: retry in \d+ s$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await ingest(token, five, { collection: collection.token, app: limited })).statusCode).toBe(200);
      expect((await storedEvents(collection.id)).length).toBe(15);
      await p.pool.query(`delete from logs.collection_events where collection_id = $1`, [collection.id]);
    });
  });
});
