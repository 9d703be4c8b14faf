import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { authApiRoutes, type RouteDef } from '../contracts/dist';
import { signJwt } from '../services/kit/dist/jwt';
import { prng } from '../services/kit/dist/testing';
import { E2E_PORT, pidOf, REF, signIn, superuserClient } from './stack';

/*
 * The auth API's hostile-input fuzzer: seeded (DASH_FUZZ_SEED, as the other fuzzers) and bounded
 * (DASH_AUTH_FUZZ_CASES), it sends requests to every route of `authApiRoutes` through the gateway, each from a
 * valid base (so handlers are reached, not only the schema checks) with hostile changes: field values (100 KB
 * strings, wrong types, unicode, NUL, SQL, template syntax, prototype names, deep objects), whole bodies (JSON
 * that does not parse, empty, huge, 5,000 levels deep, wrong content types), query strings, path parameters
 * and headers (no key, the anon and service_role keys, users' tokens, forged, expired and malformed tokens,
 * huge ones, both error-body API versions). Every answer must be below 500, every refusal in GoTrue's error
 * shape for the API version asked, no redirect may leave for a host the project does not allow, and
 * afterwards the gateway and the auth service are the processes that started, no auth connection is left in
 * a transaction, and a sign-in still works.
 */

const FIXED_SEED = 29;
const SEED = process.env.DASH_FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.DASH_FUZZ_SEED ?? FIXED_SEED);
const CASES = Number(process.env.DASH_AUTH_FUZZ_CASES ?? 400);
const CONCURRENCY = 4;
const BASE = `http://127.0.0.1:${E2E_PORT}`;
const VERSION_HEADER = 'x-supabase-api-version';
const EVIL_HOST = 'evil.example';
const PASSWORD = 'fuzz-password-1';

const deepJson = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const deepObject = (depth: number): unknown => JSON.parse(deepJson(depth));

const STRINGS = [
  '',
  ' ',
  'x'.repeat(100 * 1024),
  '\u0000',
  'a\u0000b@example.com',
  '🙂'.repeat(500),
  'é@exämple.com',
  '\ud800',
  '\u202e@example.com',
  "'; drop table auth.users; --",
  "x') or ('1'='1",
  '$$; select pg_sleep(10); $$',
  '{{ .Token }}{{ template "x" }}',
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  'constructor',
  '__proto__',
  `https://${EVIL_HOST}/steal`,
  `//${EVIL_HOST}`,
  'javascript:alert(1)',
  '%00',
  '-1',
  '1e309',
  'null',
  'aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa',
  'fuzz@example.com',
];
const VALUES: unknown[] = [...STRINGS, null, true, false, 0, -1, 2 ** 53 + 1, 1.5, [], ['a', 1], {}, { $gt: '' }, { __proto__: { admin: true } }, deepObject(200)];
const RAW_BODIES: Array<{ label: string; body: string }> = [
  { label: 'not JSON', body: 'not json' },
  { label: 'truncated JSON', body: '{"email": "a@b.c"' },
  { label: 'empty', body: '' },
  { label: 'array', body: '[]' },
  { label: 'null', body: 'null' },
  { label: 'string', body: '"x"' },
  { label: 'number', body: '12' },
  { label: '5,000 levels deep', body: deepJson(5000) },
  { label: 'deep data', body: `{"data": ${deepJson(3000)}, "user_metadata": ${deepJson(3000)}}` },
  { label: '300 KB', body: JSON.stringify({ email: 'big@example.com', data: { blob: 'x'.repeat(300 * 1024) } }) },
  { label: 'duplicate keys', body: '{"email": "a@example.com", "email": {"x": 1}}' },
  { label: 'form', body: 'email=a%40example.com&password=x&grant_type=password' },
  { label: 'form with odd encoding', body: 'email=%E0%A4%A&password=%00&data[x]=1' },
];
const CONTENT_TYPES = ['application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/xml', '*/*', 'garbage'];

test.setTimeout(5 * 60_000);

test('hostile requests to every auth API route: no 5xx, GoTrue error bodies, no open redirect, nothing stops', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  const keys = (await (await page.request.get(`/api/platform/projects/${REF}/api-keys`)).json()) as { anon: string; service_role: string };
  const api = `${BASE}/p/${REF}/auth/v1`;
  const asService = { apikey: keys.service_role, authorization: `Bearer ${keys.service_role}`, 'content-type': 'application/json', [VERSION_HEADER]: '2024-01-01' };

  // Users of the fuzzer's own: A signs in (its token is the fuzz's signed-in caller), B's sessions are the ones
  // logout ends, C is the one admin changes and deletes are aimed at.
  const tag = randomUUID().slice(0, 8);
  const makeUser = async (name: string) => {
    const email = `afz-${name}-${tag}@example.com`;
    const created = await fetch(`${api}/admin/users`, { method: 'POST', headers: asService, body: JSON.stringify({ email, password: PASSWORD, email_confirm: true }) });
    expect(created.status, await created.clone().text()).toBe(200);
    return { email, ...((await created.json()) as { id: string; identities: Array<{ identity_id: string }> }) };
  };
  const [userA, userB, userC] = [await makeUser('a'), await makeUser('b'), await makeUser('c')];
  const signInAs = async (email: string) => {
    const response = await fetch(`${api}/token?grant_type=password`, { method: 'POST', headers: { apikey: keys.anon, 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
    expect(response.status).toBe(200);
    return (await response.json()) as { access_token: string; refresh_token: string };
  };
  const sessionA = await signInAs(userA.email);
  const sessionB = await signInAs(userB.email);
  const enrolled = await fetch(`${api}/factors`, { method: 'POST', headers: { apikey: keys.anon, authorization: `Bearer ${sessionA.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ factor_type: 'totp', friendly_name: `fuzz ${tag}` }) });
  expect(enrolled.status).toBe(200);
  const factorId = ((await enrolled.json()) as { id: string }).id;

  const claimsA = JSON.parse(Buffer.from(sessionA.access_token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const BAD_TOKENS = [
    `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claimsA, role: 'service_role' })}.`,
    signJwt('another-projects-jwt-secret-of-32-chars-or-more', { ...claimsA, role: 'service_role' }),
    signJwt('another-projects-jwt-secret-of-32-chars-or-more', { role: 'service_role', iss: 'dash' }),
    `${sessionA.access_token.split('.').slice(0, 2).join('.')}.${'A'.repeat(43)}`,
    'not.a.jwt',
    'constructor',
    `${'x'.repeat(2000)}.${'y'.repeat(2000)}.z`,
  ];

  const random = prng(SEED);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const chance = (p: number) => random() < p;
  const address = () => `afz-${Math.floor(random() * 1e9)}-${tag}@example.com`;
  const uuid = () => 'xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'.replace(/x/g, () => Math.floor(random() * 16).toString(16));

  /** A request each route's handler accepts (or refuses for a reason of its own): the base the hostile changes start from. */
  const baseOf = (name: keyof typeof authApiRoutes): { query: Record<string, string>; body?: Record<string, unknown>; bearer?: string; params?: Record<string, string> } => {
    switch (name) {
      case 'signup':
        return { query: { redirect_to: 'http://localhost:3000/welcome' }, body: { email: address(), password: PASSWORD, data: { plan: 'pro' } } };
      case 'token':
        return chance(0.5)
          ? { query: { grant_type: 'password' }, body: { email: userA.email, password: PASSWORD } }
          : { query: { grant_type: pick(['refresh_token', 'pkce']) }, body: { refresh_token: sessionA.refresh_token, auth_code: uuid(), code_verifier: 'v'.repeat(43) } };
      case 'verifyPost':
        return { query: {}, body: { type: pick(['signup', 'magiclink', 'recovery', 'email', 'email_change', 'invite']), email: userA.email, token: '123456' } };
      case 'verifyGet':
        return { query: { type: 'signup', token: 'a'.repeat(56), redirect_to: `https://${EVIL_HOST}/x` } };
      case 'otp':
      case 'magiclink':
        return { query: {}, body: { email: chance(0.5) ? userA.email : address(), create_user: chance(0.5) } };
      case 'recover':
        return { query: { redirect_to: `https://${EVIL_HOST}` }, body: { email: userA.email } };
      case 'resend':
        return { query: {}, body: { type: pick(['signup', 'email_change', 'sms']), email: userA.email } };
      case 'getUser':
      case 'reauthenticate':
      case 'userIdentities':
        return { query: { provider: 'github' }, bearer: sessionA.access_token };
      case 'updateUser':
        return { query: {}, body: { data: { theme: 'dark' } }, bearer: sessionA.access_token };
      case 'logout':
        return { query: { scope: pick(['local', 'others', 'global']) }, bearer: sessionB.access_token };
      case 'authorize':
        return { query: { provider: pick(['github', 'google', 'azure']), redirect_to: `https://${EVIL_HOST}` } };
      case 'callback':
        return { query: { error: 'access_denied', error_description: 'no' } };
      case 'unlinkIdentity':
        return { query: {}, bearer: sessionA.access_token, params: { identity: userA.identities[0]!.identity_id } };
      case 'enrollFactor':
        return { query: {}, body: { factor_type: 'totp', friendly_name: `f ${Math.floor(random() * 1e6)}` }, bearer: sessionA.access_token };
      case 'challengeFactor':
      case 'unenrollFactor':
        return { query: {}, body: {}, bearer: sessionA.access_token, params: { factor: factorId } };
      case 'verifyFactor':
        return { query: {}, body: { challenge_id: uuid(), code: '123456' }, bearer: sessionA.access_token, params: { factor: factorId } };
      case 'adminListUsers':
        return { query: { page: '1', per_page: '5' }, bearer: keys.service_role };
      case 'adminCreateUser':
        return { query: {}, body: { email: address(), password: PASSWORD, user_metadata: { a: 1 } }, bearer: keys.service_role };
      case 'adminGetUser':
      case 'adminListFactors':
        return { query: {}, bearer: keys.service_role, params: { id: userA.id } };
      case 'adminUpdateUser':
        return { query: {}, body: { user_metadata: { fuzzed: true } }, bearer: keys.service_role, params: { id: userC.id } };
      case 'adminDeleteUser':
        return { query: {}, body: { should_soft_delete: true }, bearer: keys.service_role, params: { id: userC.id } };
      case 'adminDeleteFactor':
        return { query: {}, bearer: keys.service_role, params: { id: userC.id, factor: uuid() } };
      case 'adminGenerateLink':
        return { query: {}, body: { type: pick(['magiclink', 'recovery', 'signup', 'invite']), email: address(), password: PASSWORD }, bearer: keys.service_role };
      case 'invite':
        return { query: {}, body: { email: address() }, bearer: keys.service_role };
      case 'settings':
        return { query: {} };
    }
  };

  const names = Object.keys(authApiRoutes) as Array<keyof typeof authApiRoutes>;
  const schemaKeys = (schema: unknown) => Object.keys((schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
  const headerSafe = (value: string) => value.replace(/[^\x21-\x7e ]/g, '').trim() || 'x';
  /** Percent-encodes the UTF-8 of `value` byte by byte (a lone surrogate too, which encodeURIComponent refuses). */
  const pathSegment = (value: string) => [...Buffer.from(value, 'utf8')].map((b) => (/[A-Za-z0-9._~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`)).join('');

  interface Case {
    i: number;
    route: RouteDef;
    url: string;
    method: string;
    headers: Record<string, string>;
    body?: string;
    versioned: boolean;
    what: string;
  }
  // Every case is drawn before any is sent, so a seed is the same requests whatever order the answers come in.
  // Routes are taken in turn (each gets CASES / routes cases), the changes at random.
  const cases: Case[] = Array.from({ length: CASES }, (_, i) => {
    const name = names[i % names.length]!;
    const route = authApiRoutes[name] as RouteDef;
    const base = baseOf(name);
    const what: string[] = [name];
    // Path parameters.
    const params: Record<string, string> = { ref: REF, ...(base.params ?? {}) };
    for (const key of Object.keys(params)) {
      if (chance(key === 'ref' ? 0.03 : 0.25)) {
        params[key] = key === 'ref' ? pick(['nope', 'constructor', 'x'.repeat(64)]) : pick([uuid(), ...STRINGS.slice(0, 20).filter((s) => s.length < 5000)]);
        what.push(`param ${key}`);
      }
    }
    const path = route.url.replace(/:([A-Za-z_]+)/g, (_m, key: string) => pathSegment(params[key] ?? 'x')).replace(/^\/[^/]*\/v1/, '');
    // Query string.
    const query = new URLSearchParams(base.query);
    if (chance(0.35)) {
      const key = chance(0.8) ? pick([...schemaKeys(route.querystring), 'redirect_to', 'grant_type', 'scope', 'type']) : pick(['constructor', '__proto__', 'x'.repeat(300)]);
      const value = String(pick(STRINGS));
      if (chance(0.2)) query.append(key, value);
      else query.set(key, value);
      what.push(`query ${key}`);
    }
    // Headers: the key, the bearer, the error-body version, and odd others.
    const headers: Record<string, string> = {};
    const apikey = chance(0.8) ? keys.anon : pick([keys.service_role, '', 'constructor', ...BAD_TOKENS]);
    if (apikey) headers.apikey = apikey;
    let bearer = base.bearer;
    if (chance(0.3)) {
      bearer = pick([undefined, keys.anon, keys.service_role, sessionA.access_token, ...BAD_TOKENS, 'x'.repeat(20_000)]);
      what.push('bearer');
    }
    if (bearer !== undefined) headers.authorization = chance(0.05) ? `Basic ${bearer}` : `Bearer ${bearer}`;
    const version = chance(0.6) ? '2024-01-01' : chance(0.5) ? undefined : pick(['2023-01-01', '9999-99-99', 'garbage', '2024-01-01T00:00']);
    if (version) headers[VERSION_HEADER] = version;
    if (chance(0.1)) headers['user-agent'] = 'u'.repeat(4000);
    if (chance(0.1)) headers['x-forwarded-for'] = pick(['1.2.3.4', 'not-an-ip', '::1, 10.0.0.1', '<script>']);
    // Body.
    let body: string | undefined;
    if (route.method !== 'GET') {
      const fields: Record<string, unknown> = { ...(base.body ?? {}) };
      if (chance(0.15)) {
        const raw = pick(RAW_BODIES);
        body = raw.body;
        what.push(`body ${raw.label}`);
      } else {
        for (let n = chance(0.6) ? 1 + Math.floor(random() * 3) : 0; n > 0; n--) {
          const key = chance(0.85) ? pick([...schemaKeys(route.body), ...Object.keys(fields)].filter(Boolean).concat('email')) : pick(['constructor', '__proto__', 'prototype', 'x'.repeat(200)]);
          if (chance(0.1)) delete fields[key];
          else fields[key] = pick(VALUES);
          what.push(`field ${key}`);
        }
        body = base.body !== undefined || chance(0.5) ? JSON.stringify(fields) : undefined;
      }
      if (body !== undefined) {
        headers['content-type'] = chance(0.8) ? 'application/json' : pick(CONTENT_TYPES);
        if (headers['content-type'] !== 'application/json') what.push(`content-type ${headers['content-type']}`);
      }
    }
    for (const key of Object.keys(headers)) headers[key] = headerSafe(headers[key]!);
    const versioned = headers[VERSION_HEADER] !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(headers[VERSION_HEADER]!) && headers[VERSION_HEADER]! >= '2024-01-01';
    return { i, route, url: `${api.replace(`/p/${REF}/`, `/p/${pathSegment(params.ref!)}/`)}${path}${query.size ? `?${query}` : ''}`, method: route.method, headers, body, versioned, what: what.join(', ') };
  });

  const processes = ['gateway', 'auth'].map((name) => [name, pidOf(name)] as const);
  const covered = new Set<string>();
  const findings: string[] = [];
  const statuses = new Map<number, number>();
  const started = Date.now();

  /**
   * Refusals the gateway makes itself before the auth service sees the request (a path with dot segments or
   * bad encoding, a ref that cannot be one, a Content-Type that does not parse), in its own `{ statusCode,
   * error, message }` shape, which auth-js reads too (it falls back to `message`), as hosted Supabase's
   * gateway answers in its own shape. Anything else must be GoTrue's.
   */
  const GATEWAY_REFUSALS = new Set(['The URL must not contain dot segments', 'The URL is not correctly encoded', 'Project not found', 'Unsupported Media Type']);
  let gatewayRefusals = 0;
  const gatewayRefusal = (json: unknown, status: number): boolean => {
    const body = json as Record<string, unknown> | null;
    return !!body && body.statusCode === status && typeof body.error === 'string' && GATEWAY_REFUSALS.has(String(body.message));
  };
  /** Whether an error body is GoTrue's, in the shape the request's API version asked for. */
  const gotrueShape = (json: unknown, versioned: boolean): boolean => {
    const body = json as Record<string, unknown> | null;
    if (!body || typeof body !== 'object') return false;
    return versioned
      ? typeof body.code === 'string' && typeof body.message === 'string' && body.message !== ''
      : typeof body.code === 'number' && typeof body.error_code === 'string' && typeof body.msg === 'string' && body.msg !== '';
  };

  const queue = [...cases];
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const c = next;
      const where = `case ${c.i} [${c.what}]: ${c.method} ${c.url.slice(0, 200)}`;
      let response: Response;
      try {
        response = await fetch(c.url, { method: c.method, headers: c.headers, body: c.body, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
      } catch (error) {
        findings.push(`${where} → no answer: ${(error as Error).message}`);
        continue;
      }
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      covered.add(`${c.method} ${c.route.url}`);
      if (response.status >= 500) {
        findings.push(`${where} → ${response.status} ${text.slice(0, 300)}`);
      } else if (response.status >= 300 && response.status < 400) {
        const location = response.headers.get('location') ?? '';
        if (location.includes(EVIL_HOST)) findings.push(`${where} → redirect to a host the project does not allow: ${location.slice(0, 200)}`);
      } else if (response.status >= 400 && response.status !== 431 && response.status !== 414) {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        if (gatewayRefusal(json, response.status)) gatewayRefusals++;
        else if (!gotrueShape(json, c.versioned)) findings.push(`${where} → ${response.status} not in GoTrue's ${c.versioned ? '2024-01-01' : 'legacy'} error shape: ${text.slice(0, 200)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (Date.now() - started) / 1000;

  console.log(`auth fuzz, seed ${SEED}: ${CASES} cases in ${seconds.toFixed(1)} s over ${covered.size} routes: ${[...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')} (${gatewayRefusals} refused by the gateway itself)`);
  expect(findings, `seed ${SEED}`).toEqual([]);
  // Every route was reached, and hostile input did not crowd out what is valid: some answers are successes.
  expect([...covered].sort()).toEqual(Object.values(authApiRoutes).map((r) => `${r.method} ${r.url}`).sort());
  expect([...statuses.keys()].some((status) => status >= 200 && status < 300)).toBe(true);

  // Nothing stopped, and nothing was left half done.
  for (const [name, pid] of processes) expect(pidOf(name), `${name} was not restarted`).toBe(pid);
  expect((await fetch(`${BASE}/health`)).status).toBe(200);
  // Read as the server's superuser: a project role sees no other role's session state.
  const server = await superuserClient('postgres');
  try {
    const { rows } = await server.query("select count(*) filter (where state like 'idle in transaction%')::int as stuck, count(*)::int as total from pg_stat_activity where usename like '%\\_auth'");
    expect(rows[0]!.total).toBeGreaterThan(0);
    expect(rows[0]!.stuck).toBe(0);
  } finally {
    await server.end();
  }
  const fresh = await makeUser('after');
  expect((await signInAs(fresh.email)).access_token).toEqual(expect.any(String));
});
