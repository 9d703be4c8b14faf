import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ServiceMessages } from '@dash/contracts';
import { precompressFolder } from '@dash/service-kit';
import { rawRequest } from '@dash/service-kit/dist/testing';
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

describe('precompressed shell files', () => {
  const bundle = 'export const grid = (rows) => rows.map((row) => `<div class="row">${row.name}</div>`).join("");\n'.repeat(300);
  const page = `<!doctype html><title>Dash</title><div id="root"></div>${'<script defer src="/app.0a1b2c3d.js"></script>'.repeat(40)}`;
  beforeAll(() => {
    writeFileSync(path.join(shell.dir, 'app.0a1b2c3d.js'), bundle);
    writeFileSync(path.join(shell.dir, 'index.html'), page);
    precompressFolder(shell.dir);
  });

  it('sends the Brotli copy to a browser that accepts it, with the original type and cache', async () => {
    const res = await rawRequest(`${gateway.url}/app.0a1b2c3d.js`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(bundle.length / 10);
    expect(brotliDecompressSync(res.body).toString()).toBe(bundle);
  });

  it('sends gzip when Brotli is refused, and the file itself without Accept-Encoding', async () => {
    const gzip = await rawRequest(`${gateway.url}/app.0a1b2c3d.js`, { 'accept-encoding': 'gzip, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(bundle);
    const plain = await rawRequest(`${gateway.url}/app.0a1b2c3d.js`, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.toString()).toBe(bundle);
    expect(Number(plain.headers['content-length'])).toBe(bundle.length);
  });

  it('compresses the SPA fallback, still not cached', async () => {
    const res = await rawRequest(`${gateway.url}/project/default/editor`, { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(res.body).toString()).toBe(page);
  });

  it('answers HEAD with the chosen length and no body, and ranges of the chosen representation', async () => {
    const full = await rawRequest(`${gateway.url}/app.0a1b2c3d.js`, { 'accept-encoding': 'br' });
    const head = await rawRequest(`${gateway.url}/app.0a1b2c3d.js`, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(full.body.length));
    expect(head.body.length).toBe(0);
    const range = await rawRequest(`${gateway.url}/app.0a1b2c3d.js`, { range: 'bytes=0-99' });
    expect(range.status).toBe(206);
    expect(range.body.toString()).toBe(bundle.slice(0, 100));
  });

  it('does not serve the copies by their own names', async () => {
    expect((await fetch(`${gateway.url}/app.0a1b2c3d.js.br`)).status).toBe(404);
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
