import { expect, test, type Page } from '@playwright/test';
import { StorageApiError, StorageClient } from '@supabase/storage-js';
import { REF, runSql, signIn } from './stack';

// @supabase/storage-js, unchanged, against the project's storage API through the gateway
// (`/p/<ref>/storage/v1`), where it used to differ from Supabase Storage: a bucket refused by row-level
// security, sign-many on a path that is not there, and a route that does not exist.

const BUCKET = 'e2e-66-storage-js';

interface Keys {
  storageUrl: string;
  anon: string;
  service_role: string;
}

async function projectKeys(page: Page): Promise<Keys> {
  const response = await page.request.get(`/api/platform/projects/${REF}/api-keys`);
  expect(response.status()).toBe(200);
  return response.json();
}

const client = (url: string, key: string) => new StorageClient(url, { apikey: key, Authorization: `Bearer ${key}` });

/** What storage-js tells an app about a refusal. */
function refusal(error: unknown): { status: number; statusCode: string; code: string | undefined; message: string } {
  expect(error).toBeInstanceOf(StorageApiError);
  const { status, statusCode, code, message } = error as StorageApiError;
  return { status, statusCode, code, message };
}

let keys: Keys;

test.beforeEach(async ({ page }) => {
  await signIn(page, 'owner@example.com');
  keys = await projectKeys(page);
});

test('a bucket refused by row-level security: AccessDenied, "new row violates row-level security policy"', async ({ page }) => {
  // Only when no policy on storage.buckets lets the anon role insert (none does on the default project).
  expect(await runSql(page, `select count(*)::int as n from pg_policies where schemaname = 'storage' and tablename = 'buckets' and cmd in ('INSERT', 'ALL')`)).toEqual([{ n: 0 }]);
  const { error } = await client(keys.storageUrl, keys.anon).createBucket(`${BUCKET}-anon`);
  expect(refusal(error)).toEqual({ status: 400, statusCode: '403', code: 'AccessDenied', message: 'new row violates row-level security policy' });
  expect(await runSql(page, `select id from storage.buckets where id = '${BUCKET}-anon'`)).toEqual([]);
});

test('createSignedUrls signs what exists and names a missing path as Supabase Storage does', async ({ page }) => {
  const storage = client(keys.storageUrl, keys.service_role);
  await storage.deleteBucket(BUCKET).catch(() => {});
  try {
    expect((await storage.createBucket(BUCKET)).error).toBeNull();
    expect((await storage.from(BUCKET).upload('here.txt', new Blob(['here'], { type: 'text/plain' }))).error).toBeNull();
    const { data, error } = await storage.from(BUCKET).createSignedUrls(['here.txt', 'missing.txt'], 60);
    expect(error).toBeNull();
    expect(data![1]).toEqual({ path: 'missing.txt', error: 'Either the object does not exist or you do not have access to it', signedURL: null, signedUrl: null });
    expect(data![0]).toMatchObject({ path: 'here.txt', error: null });
    const signed = await page.request.get(data![0]!.signedUrl!);
    expect(signed.status()).toBe(200);
    expect(await signed.text()).toBe('here');
  } finally {
    await storage.emptyBucket(BUCKET);
    await storage.deleteBucket(BUCKET);
  }
});

test("a route that does not exist answers in Supabase Storage's shape, not the platform's", async ({ page }) => {
  const missing = await page.request.fetch(`${keys.storageUrl}/nowhere?x=1`, { method: 'DELETE', headers: { apikey: keys.anon, authorization: `Bearer ${keys.anon}` } });
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual({ statusCode: '404', code: 'InvalidRequest', error: 'Not Found', message: 'Route DELETE:/nowhere?x=1 not found' });
  const { error } = await client(`${keys.storageUrl}/v2`, keys.service_role).listBuckets();
  expect(refusal(error)).toEqual({ status: 404, statusCode: '404', code: 'InvalidRequest', message: 'Route GET:/v2/bucket not found' });
});
