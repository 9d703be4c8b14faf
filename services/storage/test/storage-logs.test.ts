import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LogEventInput, type LogMetadata } from '@dash/contracts';
import { LogShipper, type ServiceApp } from '@dash/service-kit';
import { TEST_SECRET, waitUntil } from '@dash/service-kit/dist/testing';
import { buildApp } from '../src/app';
import { DiskBackend } from '../src/backend/disk';
import { as, contractValidator, setupProject, type Project } from './helpers';
import { createBucket } from './object-fixtures';

/** A logs service that keeps what it is sent. */
const received: LogEventInput[] = [];
const logs = http.createServer((request, response) => {
  let text = '';
  request.on('data', (chunk: Buffer) => (text += chunk.toString()));
  request.on('end', () => {
    received.push(...(JSON.parse(text) as { events: LogEventInput[] }).events);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"accepted":1}');
  });
});

let p: Project;
let app: ServiceApp;
let base: string;
let dir: string;
const check = contractValidator();

beforeAll(async () => {
  p = await setupProject();
  await createBucket(p, 'avatars');
  await new Promise<void>((resolve) => logs.listen(0, '127.0.0.1', resolve));
  dir = mkdtempSync(path.join(tmpdir(), 'dash-storage-logs-'));
  const shipper = new LogShipper({
    logsUrl: `http://127.0.0.1:${(logs.address() as AddressInfo).port}`,
    secret: TEST_SECRET,
    caller: 'storage',
    flushIntervalMs: 20,
    batchSize: 100,
    maxBuffered: 1000,
  });
  app = buildApp({ secret: TEST_SECRET, pools: p.pools, backend: new DiskBackend(dir), settings: async () => p.settings, logs: shipper });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app.close();
  await p.close();
  rmSync(dir, { recursive: true, force: true });
  await new Promise((resolve) => logs.close(resolve));
});

async function eventFor(operation: string): Promise<LogEventInput & { metadata: LogMetadata['storage'] }> {
  const find = () => received.find((e) => (e.metadata as LogMetadata['storage']).operation === operation);
  await waitUntil(() => find() !== undefined, `a ${operation} event is received`);
  return find() as LogEventInput & { metadata: LogMetadata['storage'] };
}

describe('storage logs', () => {
  it('writes one event per request with bucket, object, operation, bytes, status and role', async () => {
    const body = 'x'.repeat(1234);
    const up = await fetch(`${base}/default/buckets/avatars/objects/upload?path=${encodeURIComponent('me/face.png')}`, {
      method: 'POST',
      headers: { ...as('developer'), 'content-type': 'image/png' },
      body,
    });
    expect(up.status).toBe(200);
    const down = await fetch(`${base}/default/buckets/avatars/objects/download`, {
      method: 'POST',
      headers: { ...as('read_only'), 'content-type': 'application/json' },
      body: JSON.stringify({ path: 'me/face.png' }),
    });
    expect(await down.text()).toBe(body);
    const missing = await fetch(`${base}/default/buckets/nope/objects/list`, {
      method: 'POST',
      headers: { ...as('owner'), 'content-type': 'application/json' },
      body: JSON.stringify({ path: '' }),
    });
    expect(missing.status).toBe(404);

    const upload = await eventFor('uploadObject');
    expect(upload).toMatchObject({
      source: 'storage',
      project_ref: 'default',
      event_message: 'POST /default/buckets/avatars/objects/upload 200',
      metadata: { method: 'POST', status: 200, bucket: 'avatars', object: 'me/face.png', bytes: 1234, direction: 'in', role: 'developer' },
    });
    const download = await eventFor('downloadObject');
    expect(download.metadata).toMatchObject({ bucket: 'avatars', object: 'me/face.png', direction: 'out', role: 'read_only', status: 200 });
    expect(download.metadata.bytes).toBeGreaterThan(1234);
    expect((await eventFor('listObjects')).metadata).toMatchObject({ bucket: 'nope', status: 404, role: 'owner' });
    for (const event of received) expect(check(LogEventInput, event)).toBeNull();
  });

  it('names the database role of an app’s key, and writes nothing for requests about no project', async () => {
    const res = await fetch(`${base}/default/v1/bucket`, { headers: { authorization: `Bearer ${p.keys.anon}`, apikey: p.keys.anon } });
    expect(res.status).toBe(200);
    expect((await eventFor('listBuckets')).metadata).toMatchObject({ role: 'anon', bucket: null, object: null, direction: 'out' });
    const before = received.length;
    await fetch(`${base}/health`);
    // Events are shipped in order: once a later request's is in, the health check's would be too.
    await fetch(`${base}/default/v1/bucket`, { headers: { authorization: `Bearer ${p.keys.anon}`, apikey: p.keys.anon } });
    await waitUntil(() => received.slice(before).some((e) => e.metadata.operation === 'listBuckets'), 'the later request’s event is received');
    expect(received.slice(before).map((e) => e.metadata.path)).not.toContain('/health');
  });
});
