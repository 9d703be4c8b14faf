import { abortPlan, prng, sendAndAbort, type AbortRequest } from '@dash/service-kit/dist/testing';
import { startGateway, startUpstreams, type RunningGateway, type Upstreams } from './stubs';

// Clients that give up half-way must never stop the gateway: above all while it is still looking up
// the caller's credential or project (the body it has begun to read waits meanwhile), which is where
// a dropped upload used to end the process with an unhandled 'error' event.

let upstreams: Upstreams;
let gateway: RunningGateway;
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  upstreams = await startUpstreams();
  upstreams.sessions.set('tok-alice', { user: { id: 'alice-id', email: 'alice@example.com', name: 'Alice' }, projects: { default: 'owner' } });
  upstreams.accessTokens.set('dash_pat_0123', { user: { id: 'alice-id', email: 'alice@example.com', name: 'Alice' }, projects: { default: 'owner' } });
  upstreams.projectStatuses.set('default', 'ACTIVE_HEALTHY');
  gateway = await startGateway(upstreams.urls);
  process.on('uncaughtException', onUncaught);
});
afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  await gateway.close();
  await upstreams.close();
});
beforeEach(() => {
  uncaught.length = 0;
  upstreams.slowLookupMs = 0;
});

const port = () => Number(new URL(gateway.url).port);

/** The gateway still answers: its health, a proxied read and a proxied upload. */
async function expectAnswering(): Promise<void> {
  expect(uncaught).toEqual([]);
  expect((await fetch(`${gateway.url}/health`)).status).toBe(200);
  const read = await fetch(`${gateway.url}/api/pg-meta/default/tables`, { headers: { cookie: 'dash_session=tok-alice' } });
  expect(read.status).toBe(200);
  const upload = await fetch(`${gateway.url}/api/storage/default/buckets/b/objects/upload`, {
    method: 'POST',
    headers: { authorization: 'Bearer dash_pat_0123', 'content-type': 'application/octet-stream' },
    body: Buffer.alloc(1000, 1),
  });
  expect(upload.status).toBe(200);
  expect(((await upload.json()) as { bytes: number }).bytes).toBe(1000);
}

const UPLOAD = '/api/storage/default/buckets/b/objects/upload';

describe('a client that closes while the gateway looks up its credential', () => {
  it('does not stop the gateway (20 partial uploads with a token, closed 0-7 ms after 100 of 100,000 bytes)', async () => {
    upstreams.slowLookupMs = 30;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sendAndAbort(
          port(),
          { method: 'POST', path: UPLOAD, headers: { authorization: `Bearer dash_pat_${i.toString(16).padStart(32, '0')}` }, body: Buffer.alloc(100_000, 0x61) },
          { mode: 'body', fraction: 0.001, closeAfterMs: i % 8 },
        ),
      ),
    );
    // The look-ups end after the sockets closed: the handlers resume on a dead request.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expectAnswering();
  });

  it('does not stop the gateway while it checks a session cookie, or a project API\'s project status', async () => {
    upstreams.slowLookupMs = 30;
    const requests: AbortRequest[] = [
      { method: 'POST', path: UPLOAD, headers: { cookie: 'dash_session=tok-alice' } },
      { method: 'PUT', path: '/api/pg-meta/default/tables/1', headers: { cookie: 'dash_session=tok-unknown' } },
      { method: 'POST', path: '/p/default/storage/v1/object/avatars/a.png', headers: { authorization: 'Bearer app-key' } },
      { method: 'POST', path: '/p/default/analytics/v1/collections/c/events', headers: { authorization: 'Bearer app-key' } },
    ];
    await Promise.all(requests.flatMap((request) => [0, 3, 7].map((ms) => sendAndAbort(port(), request, { mode: 'body', fraction: 0.01, closeAfterMs: ms }))));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expectAnswering();
  });
});

describe('abort fuzzing (seeded)', () => {
  const seed = Number(process.env.DASH_FUZZ_SEED ?? 27);
  const PATHS: AbortRequest[] = [
    { method: 'POST', path: UPLOAD, headers: { authorization: 'Bearer dash_pat_0123' } },
    { method: 'POST', path: UPLOAD, headers: { cookie: 'dash_session=tok-alice' } },
    { method: 'GET', path: '/api/storage/default/big-download', headers: { cookie: 'dash_session=tok-alice' } },
    { method: 'PATCH', path: '/api/platform/projects/default', headers: { cookie: 'dash_session=tok-alice', origin: 'http://127.0.0.1:8080' } },
    { method: 'POST', path: '/api/storage/default/refused-early', headers: { cookie: 'dash_session=tok-alice' } },
    { method: 'POST', path: '/p/default/storage/v1/object/avatars/a.png', headers: { authorization: 'Bearer app-key' } },
    { method: 'GET', path: '/registry.json' },
    { method: 'GET', path: '/health' },
  ];

  it(`keeps answering after 160 requests cut anywhere, with slow and fast look-ups (seed ${seed})`, async () => {
    const random = prng(seed);
    for (let round = 0; round < 4; round++) {
      upstreams.slowLookupMs = [0, 5, 30, 0][round]!;
      await Promise.all(
        Array.from({ length: 40 }, () => {
          const request = PATHS[Math.floor(random() * PATHS.length)]!;
          return sendAndAbort(port(), request, abortPlan(random));
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expectAnswering();
  });
});
