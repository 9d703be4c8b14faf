import { waitUntil } from '@dash/service-kit/dist/testing';
import type { LogEventInput } from '@dash/contracts';
import { projectRefOf, redactTokens } from '../src/edge-logs';
import { startGateway, startUpstreams, type RunningGateway, type Upstreams } from './stubs';

// Egress for organization usage: each edge event carries the bytes its response put on the wire.

let upstreams: Upstreams;
let gateway: RunningGateway;

beforeAll(async () => {
  upstreams = await startUpstreams();
  gateway = await startGateway(upstreams.urls, { edgeLogs: { flushIntervalMs: 20 } });
});
afterAll(async () => {
  await gateway.close();
  await upstreams.close();
});

async function eventFor(path: string): Promise<LogEventInput> {
  const find = () => upstreams.events.find((e) => (e.metadata as { path: string }).path === path);
  await waitUntil(() => find() !== undefined, `an edge event for ${path} is posted`);
  return find()!;
}
const bytesOf = (event: LogEventInput) => (event.metadata as { response_bytes: number }).response_bytes;

describe('edge events keep no tokens', () => {
  it('redacts token values of the query, also inside an encoded return address', async () => {
    expect(redactTokens('token=abc123')).toBe('token=[redacted]');
    expect(redactTokens('returnTo=%2Fjoin%3Ftoken%3Dabc123&x=1')).toBe('returnTo=%2Fjoin%3Ftoken%3D[redacted]&x=1');
    expect(redactTokens('limit=10&access_token=xyz')).toBe('limit=10&access_token=[redacted]');
    expect(redactTokens('included_schemas=public&limit=10')).toBe('included_schemas=public&limit=10');
    await fetch(`${gateway.url}/join?token=secret-invitation-token`);
    expect((await eventFor('/join')).metadata).toMatchObject({ query: 'token=[redacted]' });
  });
});

describe('response bytes of edge events', () => {
  it('counts a streamed download whole, and each of several replies on one connection on its own', async () => {
    const big = await fetch(`${gateway.url}/api/storage/default/big-download`);
    const body = Buffer.from(await big.arrayBuffer());
    expect(body.length).toBe(20 * 1024 * 1024);
    const small = await fetch(`${gateway.url}/api/pg-meta/default/tables`);
    const text = await small.text();

    const bigBytes = bytesOf(await eventFor('/api/storage/default/big-download'));
    // The body plus the status line, headers and chunk framing (a few bytes per chunk, however the stream was cut).
    expect(bigBytes).toBeGreaterThan(body.length);
    expect(bigBytes).toBeLessThan(body.length * 1.01);
    const smallBytes = bytesOf(await eventFor('/api/pg-meta/default/tables'));
    expect(smallBytes).toBeGreaterThan(Buffer.byteLength(text));
    expect(smallBytes).toBeLessThan(Buffer.byteLength(text) + 2048);
  });

  it('attributes apps\' calls of the project APIs to their project', async () => {
    expect(projectRefOf('/p/shop/storage/v1/object/public/a.png')).toBe('shop');
    expect(projectRefOf('/p/Not_A_Ref/storage/v1/bucket')).toBeNull();
    expect(projectRefOf('/p')).toBeNull();
    expect(projectRefOf('/project/shop/editor')).toBeNull();
  });
});
