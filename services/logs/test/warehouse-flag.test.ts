import { FEATURE_FLAGS, ServiceMessages, warehouseRoutes, type FeatureFlags, type RouteDef } from '@dash/contracts';
import type { ServiceApp } from '@dash/service-kit';
import { asRole, TEST_SECRET } from '@dash/service-kit/dist/testing';
import { buildApp } from '../src/app';
import { setupPlatform, type Platform } from './helpers';

/**
 * Issue 27: the warehouse is behind its organization's `warehouse` flag in the service too, not only in
 * the browser. The flags come from the resolver the service is given (the platform's, in main.ts).
 */
let p: Platform;
let app: ServiceApp;
let flags: FeatureFlags;
const asked: string[] = [];

beforeAll(async () => {
  p = await setupPlatform();
  app = buildApp({
    secret: TEST_SECRET,
    pool: p.pool,
    featureFlags: async (ref) => {
      asked.push(ref);
      return flags;
    },
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await p.close();
});
beforeEach(() => {
  flags = Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, false])) as FeatureFlags;
  asked.length = 0;
});

const base = '/default/analytics/warehouse';
const call = (target: ServiceApp, method: RouteDef['method'], url: string, payload?: object) =>
  target.inject({ method, url, headers: asRole('owner'), ...(payload ? { payload } : {}) });
const collectionCount = async () => Number((await p.pool.query<{ n: string }>('select count(*) as n from logs.collections')).rows[0]!.n);

it('with the flag off, creating a collection or a token through the API is refused (403) and makes nothing', async () => {
  for (const [url, payload] of [
    [`${base}/collections`, { name: 'sneaky' }],
    [`${base}/access-tokens`, { description: 'sneaky' }],
  ] as const) {
    const res = await call(app, 'POST', url, payload);
    expect({ status: res.statusCode, message: res.json<{ message: string }>().message }).toEqual({ status: 403, message: ServiceMessages.featureDisabled('warehouse') });
  }
  expect(await collectionCount()).toBe(0);
  expect((await p.pool.query('select 1 from logs.warehouse_access_tokens')).rows).toEqual([]);
  expect(asked).toEqual(['default', 'default']);
});

it('with the flag on, it works', async () => {
  flags.warehouse = true;
  expect((await call(app, 'POST', `${base}/collections`, { name: 'allowed' })).statusCode).toBe(201);
  expect((await call(app, 'GET', `${base}/collections`)).json()).toEqual([expect.objectContaining({ name: 'allowed' })]);
  expect((await call(app, 'POST', `${base}/access-tokens`, { description: 'ci' })).statusCode).toBe(201);
});

it('every warehouse route but ingest is refused while the flag is off, also reads', async () => {
  flags.warehouse = true;
  const { token } = (await call(app, 'POST', `${base}/collections`, { name: 'kept' })).json<{ token: string }>();
  flags.warehouse = false;
  const ingestless = Object.values(warehouseRoutes).filter((def) => def !== warehouseRoutes.ingest) as RouteDef[];
  for (const def of ingestless) {
    const url = def.url.replace(':ref', 'default').replace(':token', token);
    const res = await call(app, def.method, url, def.method === 'GET' || def.method === 'DELETE' ? undefined : { name: 'x', description: 'x' });
    expect(`${def.method} ${def.url} ${res.statusCode}`).toBe(`${def.method} ${def.url} 403`);
  }
  expect(await collectionCount()).toBeGreaterThan(0);
});

it('the flag is checked only once access is granted: a non-member learns nothing of it', async () => {
  const res = await app.inject({ method: 'GET', url: '/elsewhere/analytics/warehouse/collections', headers: asRole('owner') });
  expect(res.statusCode).toBe(404);
  expect(asked).toEqual([]);
});

it('a service given no flags refuses the warehouse routes (a flag that cannot be read is off)', async () => {
  const unflagged = buildApp({ secret: TEST_SECRET, pool: p.pool });
  try {
    const res = await call(unflagged, 'GET', `${base}/collections`);
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toBe(ServiceMessages.featureDisabled('warehouse'));
  } finally {
    await unflagged.close();
  }
});
