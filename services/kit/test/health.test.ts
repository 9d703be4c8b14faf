import { createServiceApp, DEPENDENCY_CHECK_TIMEOUT_MS, type ServiceApp } from '../src/app';
import { createPool } from '../src/db';
import { OwnPostgres, TEST_SECRET } from '../src/testing';

// Readiness names what is missing; liveness answers as long as the process does. A server of the test's
// own, stopped and started again under a service whose dependency it is.

let server: OwnPostgres;
let app: ServiceApp;
let pool: ReturnType<typeof createPool>;

beforeAll(async () => {
  const own = await OwnPostgres.start();
  server = own.server;
  pool = createPool(own.url, 2);
  pool.on('error', () => {});
  app = createServiceApp({
    name: 'svc',
    secret: TEST_SECRET,
    dependencies: { postgres: () => pool.query('select 1'), never: () => new Promise(() => {}) },
  });
  await app.ready();
}, 60_000);
afterAll(async () => {
  await app.close();
  await pool.end();
  await server.command('quit');
});

const health = async (url: string) => {
  const res = await app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: res.json() as unknown };
};

describe('/health and /health/live', () => {
  it('is not ready (503) while Postgres is down, naming it, and ready again once it is back; live throughout', async () => {
    // `never` hangs: it counts as down once the check's timeout passes, and does not hold /health up.
    const started = Date.now();
    expect(await health('/health')).toEqual({
      status: 503,
      body: { status: 'unavailable', service: 'svc', dependencies: { postgres: 'up', never: 'down' }, missing: ['never'], message: 'Not ready: never is unavailable' },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(DEPENDENCY_CHECK_TIMEOUT_MS - 50);

    await server.command('stop');
    const down = await health('/health');
    expect(down).toMatchObject({ status: 503, body: { dependencies: { postgres: 'down', never: 'down' }, missing: ['postgres', 'never'], message: 'Not ready: postgres, never are unavailable' } });
    expect(await health('/health/live')).toEqual({ status: 200, body: { status: 'ok', service: 'svc' } });

    await server.command('start');
    expect(await health('/health')).toMatchObject({ status: 503, body: { dependencies: { postgres: 'up' }, missing: ['never'] } });
  });
});
