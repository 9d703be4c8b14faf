import { expect, test, type Page } from '@playwright/test';
import { REF, screenshot, signIn } from './stack';

const sourceUrl = (page: string) => `/project/${REF}/logs/${page}`;
const table = (page: Page, label: string) => page.getByRole('table', { name: `${label} logs` });
const marker = () => `e2e${Date.now().toString(36)}`;

test('API calls show in the API gateway logs with live tail on; filter, search and open one', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(sourceUrl('edge-logs'));
  await expect(table(page, 'API Gateway').or(page.getByText('No results found'))).toBeVisible();
  await page.getByRole('button', { name: 'Live tail' }).click();
  await expect(page.getByRole('button', { name: 'Stop live tail' })).toHaveAttribute('aria-pressed', 'true');

  // Two calls the page did not make: a missing bucket (404) and a SQL run (200).
  const id = marker();
  expect((await page.request.get(`/api/storage/${REF}/buckets/${id}`)).status()).toBe(404);
  expect((await page.request.post(`/api/pg-meta/${REF}/sql/run`, { data: { query: `select '${id}' as marker` } })).status()).toBe(200);
  const logs = table(page, 'API Gateway');
  // The gateway ships every 0.5 s and the page polls every second: new rows come on top by themselves.
  await expect(logs.getByText(`/api/storage/${REF}/buckets/${id}`)).toBeVisible({ timeout: 5000 });
  await expect(logs.getByRole('row').nth(1)).toBeVisible();
  await screenshot(page, '16-logs-edge-live-tail');

  await page.getByRole('button', { name: 'Stop live tail' }).click();
  await page.getByLabel('Status').selectOption('4xx');
  await page.getByLabel('Method').selectOption('GET');
  await expect(logs.getByText(`/api/storage/${REF}/buckets/${id}`)).toBeVisible();
  await expect(logs.getByText(`/api/pg-meta/${REF}/sql/run`)).toHaveCount(0);
  for (const status of await logs.locator('tbody .logs-status').allTextContents()) expect(Number(status)).toBeGreaterThanOrEqual(400);

  await page.getByLabel('Status').selectOption('');
  await page.getByLabel('Method').selectOption('');
  await page.getByLabel('Search events').fill(id);
  await expect(logs.getByRole('row')).toHaveCount(2);
  await logs.getByText(`/api/storage/${REF}/buckets/${id}`).click();
  const detail = page.getByRole('complementary', { name: 'Event details' });
  await expect(detail.getByTestId('event-json')).toContainText(`"path": "/api/storage/${REF}/buckets/${id}"`);
  await expect(detail.getByTestId('event-json')).toContainText('"status": 404');
  await screenshot(page, '16-logs-edge-detail');

  // An app's call to the project's data API is a PostgREST event, with the database role it ran as.
  const keys = (await (await page.request.get(`/api/platform/projects/${REF}/api-keys`)).json()) as { anon: string };
  const dataApi = await page.request.get(`/p/${REF}/rest/v1/${id}?select=id`, { headers: { apikey: keys.anon } });
  expect(dataApi.status()).toBe(404);
  await page.goto(sourceUrl('postgrest-logs'));
  const postgrest = table(page, 'PostgREST');
  await expect(postgrest.getByText(`/rest/v1/${id}`).first()).toBeVisible({ timeout: 10_000 });
  await expect(postgrest.getByRole('row').nth(1)).toContainText('anon');
  await screenshot(page, '16-logs-postgrest');
});

test('a Postgres error made in the SQL editor shows in the Postgres logs', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  const name = `no_such_table_${marker()}`;
  const run = await page.request.post(`/api/pg-meta/${REF}/sql/run`, { data: { query: `select * from ${name}` } });
  expect(run.status()).toBe(400);
  await page.goto(sourceUrl('postgres-logs'));
  await page.getByLabel('Level').selectOption('ERROR');
  await page.getByLabel('Search events').fill(name);
  const logs = table(page, 'Postgres');
  // The server writes its jsonlog at once; the logs service reads it every half second.
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(logs.getByText(`relation "${name}" does not exist`)).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await logs.getByText(`relation "${name}" does not exist`).click();
  const json = page.getByRole('complementary', { name: 'Event details' }).getByTestId('event-json');
  await expect(json).toContainText('"sql_state_code": "42P01"');
  await expect(json).toContainText(`"statement": "select * from ${name}"`);
  await screenshot(page, '16-logs-postgres');
});

test('an upload shows in the Storage logs and a sign-in in the Auth logs', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  const bucket = `logs-${marker()}`;
  expect((await page.request.post(`/api/storage/${REF}/buckets`, { data: { id: bucket, public: false } })).status()).toBe(201);
  const upload = await page.request.post(`/api/storage/${REF}/buckets/${bucket}/objects/upload?path=hello.txt`, {
    headers: { 'content-type': 'text/plain' },
    data: 'hello from the logs test',
  });
  expect(upload.status()).toBe(200);
  await page.goto(sourceUrl('storage-logs'));
  const storage = table(page, 'Storage');
  await page.getByLabel('Search events').fill(bucket);
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(storage.getByRole('row').filter({ hasText: 'uploadObject' })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  const row = storage.getByRole('row').filter({ hasText: 'uploadObject' });
  await expect(row).toContainText('hello.txt');
  await expect(row).toContainText(/↑ 24 /);
  await screenshot(page, '16-logs-storage');

  await page.goto(sourceUrl('auth-logs'));
  const auth = table(page, 'Auth');
  await page.getByLabel('Search events').fill('Signed in');
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(auth.getByRole('row').filter({ hasText: 'owner@example.com' }).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await expect(auth.getByRole('row').nth(1)).toContainText('login');
  await screenshot(page, '16-logs-auth');
});

test('realtime and pooler pages say there is no such server; every source is in the menu', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(sourceUrl('realtime-logs'));
  await expect(page.getByText('This project has no Realtime server, so there are no realtime logs to show.')).toBeVisible();
  await screenshot(page, '16-logs-realtime');
  await page.goto(sourceUrl('pooler-logs'));
  await expect(page.getByText(/has no connection pooler/)).toBeVisible();
  await screenshot(page, '16-logs-pooler');
  for (const label of ['API Gateway', 'Postgres', 'PostgREST', 'Pooler', 'Auth', 'Storage', 'Realtime']) {
    await expect(page.getByRole('navigation', { name: 'Sources' }).getByRole('link', { name: label, exact: true })).toBeVisible();
  }
});
