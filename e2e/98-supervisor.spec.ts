import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_DATA_DIR, E2E_PORT, pidOf, REF, ROOT, signIn } from './stack';

// `npm start` supervises its processes: each service killed with SIGKILL is started again, and the
// product answers again within 5 s without anyone's help; Postgres is not stopped because a Node
// process died. (Runs after the fuzzers, before 99, which stops a remote's server on purpose.)

const SERVICES = ['platform', 'pg-meta', 'storage', 'logs', 'gateway'] as const;
const postmasterPid = () => Number(readFileSync(path.join(ROOT, E2E_DATA_DIR, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
const ready = () => fetch(`http://127.0.0.1:${E2E_PORT}/health`, { signal: AbortSignal.timeout(1000) }).then((r) => r.status === 200, () => false);

test('a service killed with SIGKILL is started again and the product answers within 5 s', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  const postgres = postmasterPid();
  for (const name of SERVICES) {
    const killed = pidOf(name);
    process.kill(killed, 'SIGKILL');
    const started = Date.now();
    await expect.poll(async () => pidOf(name) !== killed && (await ready()), { timeout: 5_000, intervals: [100] }).toBe(true);
    console.log(`${name}: answering again ${Date.now() - started} ms after SIGKILL`);
    // The signed-in page's own calls work again (the session lives in the platform's database).
    const tables = await page.request.get(`/api/pg-meta/${REF}/tables?included_schemas=public`);
    expect(tables.status(), name).toBe(200);
  }
  expect(postmasterPid()).toBe(postgres);
  await page.goto(`/project/${REF}/editor`);
  await expect(page.getByText('countries', { exact: true })).toBeVisible();
});
