import { ServiceMessages } from '@dash/contracts';
import { makeShellDir, PUBLIC_ORIGIN, startGateway, startUpstreams, type RunningGateway, type Upstreams } from './stubs';

let upstreams: Upstreams;
let gateway: RunningGateway;
let shell: ReturnType<typeof makeShellDir>;

beforeAll(async () => {
  upstreams = await startUpstreams();
  shell = makeShellDir();
  gateway = await startGateway(upstreams.urls, { shellDir: shell.dir });
});
afterAll(async () => {
  await gateway.close();
  await upstreams.close();
  shell.remove();
});
beforeEach(() => {
  upstreams.seen.length = 0;
});

const SECURITY = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin', 'x-frame-options': 'DENY' };
const expectSecurityHeaders = (res: Response) => {
  for (const [name, value] of Object.entries(SECURITY)) expect(`${name}: ${res.headers.get(name)}`).toBe(`${name}: ${value}`);
};

describe('CSRF', () => {
  const post = (headers: Record<string, string>) =>
    fetch(`${gateway.url}/api/pg-meta/default/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{"query":"select 1"}',
    });

  it.each([
    ['a cross-site Sec-Fetch-Site', { 'sec-fetch-site': 'cross-site' }],
    ['a same-site (other subdomain) Sec-Fetch-Site', { 'sec-fetch-site': 'same-site' }],
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['an opaque Origin', { origin: 'null' }],
    ['the right host on another port', { origin: 'http://127.0.0.1:9999' }],
  ])('refuses a POST with %s (403)', async (_, headers) => {
    const res = await post(headers);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: ServiceMessages.crossSite });
    expect(upstreams.seen).toHaveLength(0);
  });

  it('refuses every unsafe method', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const res = await fetch(`${gateway.url}/api/storage/default/buckets/b`, { method, headers: { origin: 'https://evil.example' } });
      expect(res.status).toBe(403);
    }
    expect(upstreams.seen).toHaveLength(0);
  });

  it('allows same-origin requests and requests without browser headers', async () => {
    expect((await post({ origin: PUBLIC_ORIGIN, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await post({ 'sec-fetch-site': 'none' })).status).toBe(200);
    expect((await post({})).status).toBe(200);
    expect(upstreams.seen).toHaveLength(3);
  });

  it('lets safe methods through whatever their origin', async () => {
    const res = await fetch(`${gateway.url}/api/pg-meta/default/tables`, { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(res.status).toBe(200);
  });
});

describe('shell', () => {
  it('serves index.html for SPA routes, not cached', async () => {
    for (const path of ['/', '/project/default/editor', '/project/default/sql/new?x=1', '/sign-in']) {
      const res = await fetch(`${gateway.url}${path}`);
      expect(`${path} ${res.status}`).toBe(`${path} 200`);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root">');
      expectSecurityHeaders(res);
    }
  });

  it('serves hashed assets with a long cache and other files revalidated', async () => {
    const js = await fetch(`${gateway.url}/main.1a2b3c4d.js`);
    expect(js.status).toBe(200);
    expect(await js.text()).toBe('console.log("shell")');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expectSecurityHeaders(js);
    const svg = await fetch(`${gateway.url}/assets/logo.0123abcd.svg`);
    expect(svg.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const manifest = await fetch(`${gateway.url}/mf-manifest.json`);
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    const index = await fetch(`${gateway.url}/index.html`);
    expect(index.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 404 JSON for missing files and non-SPA paths', async () => {
    for (const [method, path] of [
      ['GET', '/missing.4f3e2d1c.js'],
      ['GET', '/favicon.ico'],
      ['POST', '/project/default/editor'],
      ['GET', '/api'],
    ] as const) {
      const res = await fetch(`${gateway.url}${path}`, { method });
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 404`);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expectSecurityHeaders(res);
    }
  });

  it('does not serve files outside the shell folder', async () => {
    const res = await fetch(`${gateway.url}/..%2f..%2fetc%2fpasswd`);
    expect([400, 403, 404]).toContain(res.status);
    expect(await res.text()).not.toContain('root:');
  });

  it('puts the security headers on API replies too', async () => {
    expectSecurityHeaders(await fetch(`${gateway.url}/api/pg-meta/default/tables`));
  });
});

describe('without a shell folder', () => {
  it('still serves the API and answers 404 for pages', async () => {
    const bare = await startGateway(upstreams.urls, { shellDir: '/nonexistent/shell/dist' });
    try {
      expect((await fetch(`${bare.url}/project/default`)).status).toBe(404);
      expect((await fetch(`${bare.url}/api/pg-meta/default/tables`)).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
