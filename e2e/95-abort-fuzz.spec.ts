import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, request, test } from '@playwright/test';
import * as contracts from '../contracts/dist';
import { IDENTITY_HEADER, type RouteDef, type ServiceName } from '../contracts/dist';
import { signIdentity } from '../services/kit/dist/identity';
import { abortPlan, prng, sendAndAbort, type AbortRequest } from '../services/kit/dist/testing';
import { contractRoutes, GUARDED, projectApiName, sampleOf, type Schema } from './contract-fuzz';
import { createUser, E2E_DATA_DIR, E2E_PASSWORD, E2E_PORT, pidOf, ROOT } from './stack';

/*
 * The abort fuzzer: every route of `contracts/` (the dashboard's, the storage API's and collection
 * ingest) is called with requests that stop half-way, as flaky networks and closed tabs stop them:
 * partial headers, partial bodies, bodies trickling in, a reset, or a whole request whose answer the
 * client no longer waits for. Each route is tried through the gateway (with a session cookie, and with
 * a personal access token) and against its service directly (with a signed identity, as the gateway
 * would send it). Afterwards every process must be the one that started (no crash, no restart by the
 * supervisor) and answer. Seeded (DASH_FUZZ_SEED, as the contract fuzzer) and bounded: CASES per route
 * and target.
 *
 * Its own project takes the calls, so valid ones change nothing the other specs use; routes whose valid
 * calls are destructive (GUARDED) name a project that does not exist.
 */

const FIXED_SEED = 27;
const SEED = process.env.DASH_FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.DASH_FUZZ_SEED ?? FIXED_SEED);
/** Cases per route and target (DASH_ABORT_CASES): each a new random way of giving up. */
const CASES = Number(process.env.DASH_ABORT_CASES ?? 3);
const CONCURRENCY = 8;
const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
const SERVICE_PORTS: Record<ServiceName, number> = { platform: E2E_PORT + 11, 'pg-meta': E2E_PORT + 12, storage: E2E_PORT + 13, logs: E2E_PORT + 14, rest: E2E_PORT + 15, graphql: E2E_PORT + 16, auth: E2E_PORT + 17, mail: E2E_PORT + 18 };
const PROCESSES = ['gateway', 'platform', 'pg-meta', 'storage', 'logs', 'rest', 'graphql', 'mail', 'auth'] as const;
const MISSING_REF = 'abortfuzznone';

test.setTimeout(10 * 60_000);

const secret = () => (JSON.parse(readFileSync(path.join(ROOT, E2E_DATA_DIR, 'secrets.json'), 'utf8')) as { internalSecret: string }).internalSecret;

/** The route's path with its parameters filled: the fuzzer's project for `:ref`, a sample value for the others. */
function pathOf(route: RouteDef, ref: string): string {
  const params = (route.params as Schema | undefined)?.properties ?? {};
  const filled = route.url.replace(/:([A-Za-z_][A-Za-z0-9_]*)|\*/g, (_match, name: string | undefined) => {
    if (name === 'ref') return GUARDED.has(route) ? MISSING_REF : ref;
    const value = sampleOf(params[name ?? '*']);
    return encodeURIComponent(String(value ?? 'fuzz'));
  });
  const query = Object.entries((route.querystring as Schema | undefined)?.properties ?? {})
    .map(([name, schema]) => [name, sampleOf(schema)] as const)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(typeof value === 'object' ? JSON.stringify(value) : String(value))}`)
    .join('&');
  return query ? `${filled}?${query}` : filled;
}

/** Through the gateway: `/p/{ref}/storage|analytics|rest/v1/...` for the project APIs, `/api/<service>/...` else. */
function gatewayPath(route: RouteDef, servicePath: string): string {
  const projectApi = /^\/([^/]*)\/v1(\/.*)$/.exec(servicePath);
  if (route.url.startsWith('/:ref/v1/') && projectApi) return `/p/${projectApi[1]}/${projectApiName(route.service)}/v1${projectApi[2]}`;
  return `/api/${route.service}${servicePath}`;
}

/** Each process's pid now; the supervisor rewrites a pid file when it restarts a process. */
const pids = () => Object.fromEntries(PROCESSES.map((name) => [name, pidOf(name)]));

async function expectAllAnswering(): Promise<void> {
  for (const [name, port] of [['gateway', E2E_PORT], ...Object.entries(SERVICE_PORTS)] as const) {
    const live = await fetch(`http://127.0.0.1:${port}/health/live`, { signal: AbortSignal.timeout(5_000) });
    expect(live.status, `${name} /health/live`).toBe(200);
  }
  await expect.poll(async () => (await fetch(`${BASE_URL}/health`)).status, { timeout: 15_000 }).toBe(200);
}

test('requests cut anywhere, on every route, through the gateway and to each service, stop no process', async () => {
  const email = 'abort-owner@example.com';
  await createUser(email, 'Abort owner', 'owner');
  const ctx = await request.newContext({ baseURL: BASE_URL });
  expect((await ctx.post('/api/platform/auth/sign-in', { data: { email, password: E2E_PASSWORD } })).status()).toBe(200);
  const cookie = (await ctx.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const session = (await (await ctx.get('/api/platform/auth/session')).json()) as { user: { id: string } };
  const created = await ctx.post('/api/platform/projects', { data: { name: 'Abort fuzz', organization_slug: 'demo', db_pass: 'Abort-Fuzz-Pass-1' } });
  expect(created.status(), await created.text()).toBeLessThan(300);
  const { ref } = (await created.json()) as { ref: string };
  await expect.poll(async () => ((await (await ctx.get(`/api/platform/projects/${ref}`)).json()) as { status: string }).status, { timeout: 120_000 }).toBe('ACTIVE_HEALTHY');
  const token = await ctx.post('/api/platform/profile/access-tokens', { data: { name: 'abort fuzz', expires_in_days: null } });
  expect(token.status(), await token.text()).toBeLessThan(300);
  const { secret: accessToken } = (await token.json()) as { secret: string };

  const before = pids();
  const random = prng(SEED);
  const routes = contractRoutes(contracts as unknown as Record<string, unknown>);
  console.log(`abort fuzz: seed ${SEED}, ${routes.length} routes, 3 targets each, ${CASES} cases per target`);
  // Identities are signed as each request goes out: they live 60 s, as the gateway's do.
  const identity = () => signIdentity(secret(), { kind: 'user', sub: session.user.id, email, projects: { [ref]: 'owner' }, credential: 'session' });
  const jobs: Array<{ port: number; request: () => AbortRequest }> = [];
  for (const route of routes) {
    const servicePath = pathOf(route, ref);
    const body = route.body ? Buffer.from(JSON.stringify(sampleOf(route.body as Schema) ?? {})) : undefined;
    const base = { method: route.method, body };
    for (let i = 0; i < CASES; i++) {
      jobs.push({ port: E2E_PORT, request: () => ({ ...base, path: gatewayPath(route, servicePath), headers: { cookie, origin: BASE_URL } }) });
      jobs.push({ port: E2E_PORT, request: () => ({ ...base, path: gatewayPath(route, servicePath), headers: { authorization: `Bearer ${accessToken}` } }) });
      jobs.push({ port: SERVICE_PORTS[route.service], request: () => ({ ...base, path: servicePath, headers: { [IDENTITY_HEADER]: identity() } }) });
    }
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        await sendAndAbort(job.port, job.request(), abortPlan(random));
      }
    }),
  );

  await expectAllAnswering();
  expect(pids(), 'no process crashed (the supervisor would have started a new one)').toEqual(before);
  // And the dashboard still serves the owner (signed in again: a valid sign-out may have been among the calls).
  expect((await ctx.post('/api/platform/auth/sign-in', { data: { email, password: E2E_PASSWORD } })).status()).toBe(200);
  expect((await ctx.get(`/api/pg-meta/${ref}/tables?included_schemas=public`)).status()).toBe(200);
  await ctx.dispose();
});
