import { expect, test } from '@playwright/test';
import { REF, screenshot, signIn } from './stack';

test('a Read-only member sees write actions disabled, and the service refuses them', async ({ page }) => {
  await signIn(page, 'viewer@example.com');
  await page.goto(`/project/${REF}/storage/buckets`);
  const newBucket = page.getByRole('button', { name: 'New bucket' });
  await expect(newBucket).toBeDisabled();
  await newBucket.hover({ force: true });
  await expect(page.getByRole('tooltip').filter({ hasText: 'You need additional permissions to create buckets' })).toBeVisible();
  await screenshot(page, '10-viewer-storage');

  // The guard is the service: the same action through the API answers 403.
  const response = await page.request.post(`/api/storage/${REF}/buckets`, { data: { id: 'viewer-bucket', public: false } });
  expect(response.status()).toBe(403);
  const list = await page.request.get(`/api/storage/${REF}/buckets`);
  expect(list.status()).toBe(200);
  expect(((await list.json()) as { id: string }[]).map((b) => b.id)).not.toContain('viewer-bucket');

  // Read-only members' SQL runs as the project's read-only role: a select works, Postgres refuses a write,
  // and they cannot pick another role to run as.
  const read = await page.request.post(`/api/pg-meta/${REF}/sql/run`, { data: { query: 'select count(*) as n from public.countries' } });
  expect(read.status()).toBe(200);
  const write = await page.request.post(`/api/pg-meta/${REF}/sql/run`, { data: { query: `insert into public.countries (name) values ('Nowhere')` } });
  expect(write.status()).toBe(400);
  expect(((await write.json()) as { message: string }).message).toMatch(/read-only transaction|permission denied/);
  const asAnon = await page.request.post(`/api/pg-meta/${REF}/sql/run`, { data: { query: 'select 1', runAs: { role: 'service_role' } } });
  expect(asAnon.status()).toBe(403);
});

test('signed-out calls are refused and cross-site writes are blocked', async ({ request }) => {
  expect((await request.get(`/api/pg-meta/${REF}/tables`)).status()).toBe(401);
  const crossSite = await request.post('/api/platform/auth/sign-in', {
    headers: { origin: 'https://evil.example.com' },
    data: { email: 'owner@example.com', password: 'x' },
  });
  expect(crossSite.status()).toBe(403);
});
