import { normalizeBase, normalizeOrigin } from '../src/config';
import { isCrossSite } from '../src/csrf';
import { projectRefOf } from '../src/edge-logs';
import { forwardHeaders, proxyTarget } from '../src/routes/proxy';
import { cacheControlFor, isSpaRoute } from '../src/routes/shell';
import { hashToken } from '../src/sessions';
import { verifyForwardedClient } from '@dash/service-kit';
import { TEST_SECRET } from '@dash/service-kit/dist/testing';

describe('projectRefOf', () => {
  it.each([
    ['/api/pg-meta/default/tables', 'default'],
    ['/api/storage/my-app/buckets', 'my-app'],
    ['/api/logs/default/edge-logs', 'default'],
    ['/api/pg-meta/default', 'default'],
    ['/api/platform/projects/default/permissions', 'default'],
    ['/api/platform/projects/default', 'default'],
    ['/api/platform/projects', null],
    ['/api/platform/organizations', null],
    ['/api/pg-meta/internal/x', null],
    ['/api/pg-meta/Not_A_Ref/tables', null],
    ['/api/unknown/default/x', null],
    ['/project/default/editor', null],
    ['/health', null],
  ])('%s → %s', (path, ref) => expect(projectRefOf(path)).toBe(ref));
});

describe('proxyTarget', () => {
  it('splits service and path', () => {
    expect(proxyTarget('GET', '/api/pg-meta/default/tables')).toEqual({ kind: 'forward', service: 'pg-meta', path: '/default/tables' });
    expect(proxyTarget('GET', '/api/platform')).toEqual({ kind: 'forward', service: 'platform', path: '/' });
    expect(proxyTarget('GET', '/api/storage/default/object/a%20b.txt')).toEqual({
      kind: 'forward',
      service: 'storage',
      path: '/default/object/a%20b.txt',
    });
  });

  it('refuses internal paths, unknown services, dot segments and bad encodings', () => {
    expect(proxyTarget('GET', '/api/platform/internal/registry')).toMatchObject({ kind: 'error', status: 404 });
    expect(proxyTarget('GET', '/api/platform/%2Finternal/registry')).toMatchObject({ kind: 'error', status: 404 });
    expect(proxyTarget('GET', '/api/platform/\\internal/registry')).toMatchObject({ kind: 'error', status: 404 });
    expect(proxyTarget('GET', '/api/gateway/x')).toMatchObject({ kind: 'error', status: 404 });
    expect(proxyTarget('GET', '/api/platform/a/%2E%2E/internal')).toMatchObject({ kind: 'error', status: 400 });
    expect(proxyTarget('GET', '/api/platform/%zz')).toMatchObject({ kind: 'error', status: 400 });
  });
});

describe('forwardHeaders', () => {
  it('removes client identity and forwarding headers, adds the gateway’s', () => {
    const out = forwardHeaders(
      { ip: '10.1.2.3', headers: { host: 'dash.local:8080' } },
      {
        host: 'upstream:1',
        'x-dash-identity': 'forged',
        'x-forwarded-for': '6.6.6.6',
        forwarded: 'for=6.6.6.6',
        cookie: 'dash_session=t',
        accept: 'application/json',
        'x-dash-forwarded': 'forged',
      },
      'pg-meta',
      'signed.identity',
      'https',
      TEST_SECRET,
    );
    const { 'x-dash-forwarded': forwarded, ...rest } = out;
    expect(rest).toEqual({
      host: 'upstream:1',
      accept: 'application/json',
      'x-forwarded-for': '10.1.2.3',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'dash.local:8080',
      'x-dash-identity': 'signed.identity',
    });
    // Services believe only the signed word on where the request came from.
    expect(verifyForwardedClient(TEST_SECRET, forwarded as string)).toMatchObject({ ip: '10.1.2.3', proto: 'https' });
    expect(verifyForwardedClient('another-secret', forwarded as string)).toBeNull();
  });

  it('keeps the cookie for the platform and sends no identity without a session', () => {
    const out = forwardHeaders({ ip: '::1', headers: {} }, { cookie: 'dash_session=t', 'x-dash-identity': 'x' }, 'platform', undefined, 'https', TEST_SECRET);
    expect(out.cookie).toBe('dash_session=t');
    expect(out['x-dash-identity']).toBeUndefined();
  });
});

describe('isCrossSite', () => {
  const origin = 'http://127.0.0.1:8080';
  const allowed = new Set([origin]);
  it('only checks unsafe methods', () => {
    expect(isCrossSite('GET', { 'sec-fetch-site': 'cross-site' }, allowed)).toBe(false);
    expect(isCrossSite('HEAD', { origin: 'https://evil.example' }, allowed)).toBe(false);
    expect(isCrossSite('OPTIONS', { origin: 'https://evil.example' }, allowed)).toBe(false);
  });
  it('uses Sec-Fetch-Site and Origin', () => {
    expect(isCrossSite('POST', { 'sec-fetch-site': 'cross-site' }, allowed)).toBe(true);
    expect(isCrossSite('DELETE', { 'sec-fetch-site': 'Same-Site' }, allowed)).toBe(true);
    expect(isCrossSite('PATCH', { origin: 'http://localhost:8080' }, allowed)).toBe(true);
    expect(isCrossSite('PUT', { origin, 'sec-fetch-site': 'same-origin' }, allowed)).toBe(false);
    expect(isCrossSite('POST', {}, allowed)).toBe(false);
    const two = new Set([origin, 'http://localhost:8080']);
    expect(isCrossSite('POST', { origin: 'http://localhost:8080' }, two)).toBe(false);
    expect(isCrossSite('POST', { origin: 'http://localhost:8081' }, two)).toBe(true);
  });
});

describe('shell helpers', () => {
  it('caches hashed files for a year, everything else revalidates', () => {
    expect(cacheControlFor('/dist/main.1a2b3c4d.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/dist/523.0f9e8d7c.js.map')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/dist/index.html')).toBe('no-cache');
    expect(cacheControlFor('/dist/remoteEntry.js')).toBe('no-cache');
    expect(cacheControlFor('/dist/mf-manifest.json')).toBe('no-cache');
  });

  it('knows the SPA routes', () => {
    expect(isSpaRoute('GET', '/')).toBe(true);
    expect(isSpaRoute('GET', '/project/default/logs/edge-logs')).toBe(true);
    expect(isSpaRoute('HEAD', '/projects')).toBe(true);
    expect(isSpaRoute('POST', '/projects')).toBe(false);
    expect(isSpaRoute('GET', '/api/x')).toBe(false);
    expect(isSpaRoute('GET', '/health')).toBe(false);
    expect(isSpaRoute('GET', '/registry.json')).toBe(false);
    expect(isSpaRoute('GET', '/main.js')).toBe(false);
  });
});

describe('misc', () => {
  it('normalises configured URLs', () => {
    expect(normalizeOrigin('http://127.0.0.1:8080/', 'x')).toBe('http://127.0.0.1:8080');
    expect(normalizeBase('http://127.0.0.1:8091/', 'x')).toBe('http://127.0.0.1:8091');
    expect(() => normalizeOrigin('ftp://x', 'The origin')).toThrow(/http/);
    expect(() => normalizeBase('nope', 'The platform URL')).toThrow(/The platform URL/);
  });

  it('keys the session cache by a sha256 of the token', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
