import http from 'node:http';
import { signIdentity } from '@dash/service-kit';
import { TEST_SECRET } from '@dash/service-kit/dist/testing';
import { deadUrl, PUBLIC_ORIGIN, startGateway, startUpstreams, type RunningGateway, type Seen, type Upstreams } from './stubs';

let upstreams: Upstreams;
let gateway: RunningGateway;

beforeAll(async () => {
  upstreams = await startUpstreams();
  upstreams.sessions.set('tok-alice', {
    user: { id: 'alice-id', email: 'alice@example.com', name: 'Alice' },
    projects: { default: 'owner', other: 'read_only' },
  });
  upstreams.sessions.set('tok-bob', { user: { id: 'bob-id', email: 'bob@example.com', name: 'Bob' }, projects: {} });
  gateway = await startGateway(upstreams.urls);
});
afterAll(async () => {
  await gateway.close();
  await upstreams.close();
});
beforeEach(() => {
  upstreams.seen.length = 0;
  upstreams.resolveCalls.length = 0;
});

interface Echo {
  service: string;
  method: string;
  url: string;
  identity: Seen['identity'];
  bytes: number;
  text: string;
}

/** GET with the path sent verbatim (no URL normalisation). */
function rawStatus(url: string): Promise<number> {
  const { host, port } = new URL(url);
  const path = url.slice(url.indexOf('/', url.indexOf('//') + 2));
  return new Promise((resolve, reject) => {
    const req = http.request({ host: host.split(':')[0], port, path, method: 'GET' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** POSTs `body` in 64 KB writes, as a client streams an upload; the answer, or the error the client got. */
function upload(url: string, body: Buffer, agent?: http.Agent): Promise<{ status: number; message: string } | { error: string }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve) => {
    const req = http.request({ host: hostname, port, path: pathname, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, message: (JSON.parse(text) as { message?: string }).message ?? '' }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    let offset = 0;
    const write = () => {
      while (offset < body.length) {
        const more = req.write(body.subarray(offset, (offset += 64 * 1024)));
        if (!more) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

const lastSeen = () => upstreams.seen[upstreams.seen.length - 1]!;

describe('proxy', () => {
  it('forwards /api/<service>/* to that service with path and query', async () => {
    for (const service of ['platform', 'pg-meta', 'storage', 'logs']) {
      const res = await fetch(`${gateway.url}/api/${service}/default/tables?included_schemas=public&limit=5`);
      expect(res.status).toBe(200);
      const echo = (await res.json()) as Echo;
      expect(echo).toMatchObject({ service, method: 'GET', url: '/default/tables?included_schemas=public&limit=5', identity: null });
    }
  });

  it('turns the session cookie into a freshly signed user identity with the user’s projects', async () => {
    const res = await fetch(`${gateway.url}/api/pg-meta/default/tables`, { headers: { cookie: 'theme=dark; dash_session=tok-alice' } });
    const echo = (await res.json()) as Echo;
    expect(echo.identity).toMatchObject({
      kind: 'user',
      sub: 'alice-id',
      email: 'alice@example.com',
      projects: { default: 'owner', other: 'read_only' },
      credential: 'session',
    });
    // Short-lived: it expires within the identity TTL.
    expect(echo.identity!.exp - Date.now() / 1000).toBeLessThanOrEqual(61);
    expect(upstreams.resolveCalls).toEqual(['tok-alice']);
  });

  it('strips a client-sent identity, even a validly signed one', async () => {
    const forged = signIdentity(TEST_SECRET, { kind: 'service', sub: 'gateway' });
    await fetch(`${gateway.url}/api/platform/projects`, { headers: { 'x-dash-identity': forged } });
    expect(lastSeen().headers['x-dash-identity']).toBeUndefined();
    expect(lastSeen().identity).toBeNull();

    const res = await fetch(`${gateway.url}/api/platform/projects`, {
      headers: { 'x-dash-identity': forged, cookie: 'dash_session=tok-bob' },
    });
    expect(((await res.json()) as Echo).identity).toMatchObject({ kind: 'user', sub: 'bob-id', projects: {} });
  });

  it('forwards requests with an unknown session without identity', async () => {
    const res = await fetch(`${gateway.url}/api/platform/projects`, { headers: { cookie: 'dash_session=stale' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Echo).identity).toBeNull();
  });

  it('caches resolved sessions briefly, keyed by the token hash', async () => {
    upstreams.sessions.set('tok-cache', { user: { id: 'c', email: 'c@example.com', name: 'C' }, projects: {} });
    const headers = { cookie: 'dash_session=tok-cache' };
    await Promise.all([1, 2, 3].map(() => fetch(`${gateway.url}/api/logs/default/edge-logs`, { headers })));
    await fetch(`${gateway.url}/api/logs/default/edge-logs`, { headers });
    expect(upstreams.resolveCalls.filter((t) => t === 'tok-cache')).toHaveLength(1);
  });

  it('drops the cached session when the user signs out', async () => {
    upstreams.sessions.set('tok-out', { user: { id: 'o', email: 'o@example.com', name: 'O' }, projects: {} });
    const headers = { cookie: 'dash_session=tok-out' };
    await fetch(`${gateway.url}/api/platform/projects`, { headers });
    const signOut = await fetch(`${gateway.url}/api/platform/auth/sign-out`, { method: 'POST', headers });
    expect(signOut.status).toBe(200);
    // The platform forgets the session; the gateway must not serve it from its cache.
    upstreams.sessions.delete('tok-out');
    const after = await fetch(`${gateway.url}/api/platform/projects`, { headers });
    expect(((await after.json()) as Echo).identity).toBeNull();
  });

  it('a member removed or given another role loses the old rights on their next request, with a session or a token', async () => {
    const dave = { user: { id: 'dave-id', email: 'dave@example.com', name: 'Dave' }, projects: { default: 'developer' as const } };
    upstreams.sessions.set('tok-dave', dave);
    upstreams.accessTokens.set('dash_pat_dave', dave);
    const asDave: Record<string, string>[] = [{ cookie: 'dash_session=tok-dave' }, { authorization: 'Bearer dash_pat_dave' }];
    for (const headers of asDave) await fetch(`${gateway.url}/api/pg-meta/default/tables`, { headers });
    const owner = { cookie: 'dash_session=tok-alice', origin: PUBLIC_ORIGIN };
    for (const method of ['PATCH', 'DELETE']) {
      const calls = upstreams.resolveCalls.length;
      const change = await fetch(`${gateway.url}/api/platform/organizations/demo/members/dave-id`, { method, headers: owner });
      expect(change.status).toBe(200);
      // The platform now answers Dave's credentials differently; the gateway asks it again at once.
      upstreams.sessions.set('tok-dave', { ...dave, projects: method === 'DELETE' ? {} : { default: 'read_only' } });
      upstreams.accessTokens.set('dash_pat_dave', upstreams.sessions.get('tok-dave')!);
      for (const headers of asDave) {
        const after = await fetch(`${gateway.url}/api/pg-meta/default/tables`, { headers });
        const identity = ((await after.json()) as Echo).identity as { projects?: Record<string, string> } | null;
        expect(identity?.projects).toEqual(method === 'DELETE' ? {} : { default: 'read_only' });
      }
      expect(upstreams.resolveCalls.slice(calls).filter((t) => t.includes('dave'))).toEqual(['tok-dave', 'dash_pat_dave']);
    }
  });

  it('sends the session cookie to the platform only, and sets its own forwarding headers', async () => {
    const headers = { cookie: 'dash_session=tok-alice', 'x-forwarded-for': '6.6.6.6', 'x-forwarded-host': 'evil.example' };
    await fetch(`${gateway.url}/api/platform/auth/session`, { headers });
    expect(lastSeen().headers.cookie).toBe('dash_session=tok-alice');
    expect(lastSeen().headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(lastSeen().headers['x-forwarded-host']).not.toBe('evil.example');
    await fetch(`${gateway.url}/api/storage/default/buckets`, { headers });
    expect(lastSeen().headers.cookie).toBeUndefined();
    expect(lastSeen().identity).toMatchObject({ sub: 'alice-id' });
  });

  it('passes the upstream status, headers and Set-Cookie back', async () => {
    const res = await fetch(`${gateway.url}/api/platform/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@example.com', password: 'x' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual(['dash_session=new-token; Path=/; HttpOnly; SameSite=Lax']);
  });

  it('forwards JSON bodies byte for byte', async () => {
    const body = JSON.stringify({ query: 'select 1', nested: { a: [1, 2, 3] } });
    const res = await fetch(`${gateway.url}/api/pg-meta/default/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(((await res.json()) as Echo).text).toBe(body);
    expect(lastSeen().headers['content-type']).toBe('application/json');
  });

  it('does not retry an upstream 503', async () => {
    const res = await fetch(`${gateway.url}/api/storage/default/unavailable`);
    expect(res.status).toBe(503);
    expect(upstreams.seen.filter((s) => s.url === '/default/unavailable')).toHaveLength(1);
  });

  it.each([
    '/api/platform/internal/registry',
    '/api/platform/internal/sessions/resolve',
    '/api/platform/%69nternal/registry',
    '/api/platform/INTERNAL/registry',
    '/api/platform//internal/registry',
    '/api/platform/internal%2Fregistry',
    '/api/logs/internal/events',
    '/api/pg-meta/internal',
  ])('never forwards internal routes: %s → 404', async (path) => {
    for (const method of ['GET', 'POST']) {
      const res = await fetch(`${gateway.url}${path}`, {
        method,
        headers: { cookie: 'dash_session=tok-alice', 'content-type': 'application/json' },
        body: method === 'POST' ? '{"token":"x","events":[]}' : undefined,
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
    expect(upstreams.seen).toHaveLength(0);
  });

  it('refuses dot segments and malformed encodings with 400', async () => {
    // fetch() would normalise the dots away; send the path exactly as written.
    expect(await rawStatus(`${gateway.url}/api/platform/projects/%2e%2e/internal/registry`)).toBe(400);
    expect(await rawStatus(`${gateway.url}/api/platform/projects/../../x`)).toBe(400);
    expect(await rawStatus(`${gateway.url}/api/platform/projects/%E0%A4%A`)).toBe(400);
    expect(upstreams.seen).toHaveLength(0);
  });

  it('forwards long, encoded object paths unchanged', async () => {
    const name = `${'deep/'.repeat(60)}file%20name%23${'x'.repeat(300)}.txt`;
    const res = await fetch(`${gateway.url}/api/storage/default/object/bucket/${name}?download=1`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as Echo).url).toBe(`/default/object/bucket/${name}?download=1`);
  });

  it('answers 404 JSON for an unknown service', async () => {
    const res = await fetch(`${gateway.url}/api/billing/invoices`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Unknown service "billing"' });
  });

  it('streams a 20 MB upload through without buffering it', async () => {
    const size = 20 * 1024 * 1024;
    const res = await fetch(`${gateway.url}/api/storage/default/object/files/big.bin`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(size, 1),
    });
    expect(res.status).toBe(200);
    // Far above Fastify's default 1 MB body limit: the gateway never parsed the body.
    expect(((await res.json()) as Echo).bytes).toBe(size);
  });

  it('streams an upload without a content type too', async () => {
    const res = await fetch(`${gateway.url}/api/storage/default/object/raw`, { method: 'PUT', body: Buffer.alloc(3 * 1024 * 1024, 2) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Echo).bytes).toBe(3 * 1024 * 1024);
  });

  it('lets a client still sending its body read an answer the service gave before reading it (no EPIPE)', async () => {
    const body = Buffer.alloc(10 * 1024 * 1024, 'x');
    for (const path of ['/api/storage/default/refused-early', '/p/default/storage/v1/object/b/refused-early']) {
      for (let i = 0; i < 25; i++) {
        const reply = await upload(`${gateway.url}${path}`, body);
        expect(reply).toEqual({ status: 409, message: 'The resource already exists' });
      }
    }
  });

  it('reads and drops a large body the gateway refuses itself, so a keep-alive connection carries the next request', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const body = Buffer.alloc(3 * 1024 * 1024, 'x');
    try {
      for (const path of ['/api/nope/x', '/api/platform/internal/registry', '/api/storage/default/%E0%A4%A', '/api/platform/echo']) {
        const reply = await upload(`${gateway.url}${path}`, body, agent);
        expect('status' in reply && reply.status).toBe(path.endsWith('echo') ? 200 : path.includes('%') ? 400 : 404);
      }
    } finally {
      agent.destroy();
    }
  });

  it('streams a 20 MB download', async () => {
    const res = await fetch(`${gateway.url}/api/storage/default/big-download`);
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(20 * 1024 * 1024);
  });
});

describe('proxy with services down', () => {
  let down: RunningGateway;
  beforeAll(async () => {
    down = await startGateway({ ...upstreams.urls, 'pg-meta': await deadUrl(), platform: await deadUrl() });
  });
  afterAll(() => down.close());

  it('answers 502 JSON when the upstream is down', async () => {
    const res = await fetch(`${down.url}/api/pg-meta/default/tables`);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ statusCode: 502, error: 'Bad Gateway', message: 'The pg-meta service is unavailable' });
  });

  it('answers 502 JSON when the session cannot be checked', async () => {
    const res = await fetch(`${down.url}/api/storage/default/buckets`, { headers: { cookie: 'dash_session=tok-alice' } });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ statusCode: 502, error: 'Bad Gateway' });
  });
});

describe('project API (/p/{ref}/storage/v1)', () => {
  const api = () => `${gateway.url}/p/default/storage/v1`;

  it('forwards to the storage service under /{ref}/v1 with the keys, never the cookie or an identity', async () => {
    const res = await fetch(`${api()}/object/list/avatars?limit=5`, {
      method: 'POST',
      headers: { cookie: 'dash_session=tok-alice', authorization: 'Bearer app-key', apikey: 'app-key', 'content-type': 'application/json' },
      body: JSON.stringify({ prefix: 'a' }),
    });
    expect(res.status).toBe(200);
    const echo = (await res.json()) as Echo;
    expect(echo).toMatchObject({ service: 'storage', method: 'POST', url: '/default/v1/object/list/avatars?limit=5', identity: null, text: '{"prefix":"a"}' });
    const seen = lastSeen();
    expect(seen.headers.cookie).toBeUndefined();
    expect(seen.headers.authorization).toBe('Bearer app-key');
    expect(seen.headers.apikey).toBe('app-key');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('forwards /p/{ref}/analytics/v1 (collection ingest) to the logs service with the warehouse token, not as a personal access token', async () => {
    const res = await fetch(`${gateway.url}/p/default/analytics/v1/collections/c-1/events`, {
      method: 'POST',
      headers: { cookie: 'dash_session=tok-alice', authorization: 'Bearer wh-token', 'content-type': 'application/x-ndjson' },
      body: '{"message":"a"}\n',
    });
    expect(res.status).toBe(200);
    const echo = (await res.json()) as Echo;
    expect(echo).toMatchObject({ service: 'logs', method: 'POST', url: '/default/v1/collections/c-1/events', identity: null, text: '{"message":"a"}\n' });
    expect(lastSeen().headers.authorization).toBe('Bearer wh-token');
    expect(lastSeen().headers.cookie).toBeUndefined();
    expect(upstreams.resolveCalls).toEqual([]);
  });

  it('answers CORS preflights and lets other origins write, unlike the dashboard API', async () => {
    const preflight = await fetch(`${api()}/object/avatars/a.png`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('apikey');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-upsert');
    const upload = await fetch(`${api()}/object/avatars/a.png`, { method: 'POST', headers: { origin: 'https://app.example', 'sec-fetch-site': 'cross-site' }, body: 'bytes' });
    expect(upload.status).toBe(200);
    expect(((await upload.json()) as Echo).bytes).toBe(5);
    const dashboard = await fetch(`${gateway.url}/api/storage/default/buckets`, { method: 'POST', headers: { origin: 'https://app.example', 'sec-fetch-site': 'cross-site' }, body: '{}' });
    expect(dashboard.status).toBe(403);
  });

  it('takes uploads sent with Expect: 100-continue (as curl sends large files)', async () => {
    const { hostname, port } = new URL(gateway.url);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: hostname, port, path: '/p/default/storage/v1/object/avatars/big.bin', method: 'POST', headers: { expect: '100-continue', 'content-length': '5', authorization: 'Bearer app-key' } },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      // The body follows the gateway's "100 Continue", as a client that asked for it waits for one.
      req.on('continue', () => req.end('bytes'));
    });
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as Echo).bytes).toBe(5);
    expect(lastSeen().headers.expect).toBeUndefined();
  });

  it('forwards the data API to the rest service with the query string, keys and PostgREST headers, no dashboard identity', async () => {
    const response = await fetch(`${gateway.url}/p/default/rest/v1/todos?select=id,title&id=eq.1`, {
      headers: { apikey: 'anon-key', prefer: 'count=exact', 'accept-profile': 'public' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-expose-headers')).toContain('content-range');
    const seen = lastSeen();
    expect(seen.service).toBe('rest');
    expect(seen.url).toBe('/default/v1/todos?select=id,title&id=eq.1');
    expect(seen.headers.apikey).toBe('anon-key');
    expect(seen.headers.prefer).toBe('count=exact');
    expect(seen.headers['accept-profile']).toBe('public');
    expect(seen.identity).toBeNull();
  });

  it('forwards the GraphQL endpoint to the graphql service', async () => {
    const response = await fetch(`${gateway.url}/p/default/graphql/v1`, { method: 'POST', headers: { apikey: 'anon-key', 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
    expect(response.status).toBe(200);
    expect(lastSeen()).toMatchObject({ service: 'graphql', method: 'POST', url: '/default/v1/', identity: null });
  });

  it('refuses unknown APIs, bad refs and dot segments before the storage service sees them', async () => {
    const before = upstreams.seen.length;
    expect((await fetch(`${gateway.url}/p/default/functions/v1/hello`)).status).toBe(404);
    expect((await fetch(`${gateway.url}/p/Not_A_Ref/storage/v1/bucket`)).status).toBe(404);
    expect(await rawStatus(`${api()}/object/public/b/%2e%2e/secret`)).toBe(400);
    expect(await rawStatus(`${api()}/object/public/b/..%5csecret`)).toBe(400);
    expect(upstreams.seen.length).toBe(before);
  });
});
