import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { StorageApiError, StorageClient } from '@supabase/storage-js';
import { Messages, StorageApiMessages, storageApiBucketRoutes } from '@dash/contracts';
import { signJwt } from '@dash/service-kit';
import { DiskBackend } from '../src/backend/disk';
import { objectStorageKey } from '../src/backend/types';
import { BUCKET_ID_NOT_NAME, invalidMimeType } from '../src/bucket-rules';
import { contractValidator, setupProject, type Project } from './helpers';

// The storage API's bucket routes driven by the official client, `@supabase/storage-js`, over HTTP.

let p: Project;
let base: string;
const check = contractValidator();

beforeAll(async () => {
  p = await setupProject();
  await p.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(p.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await p.close();
});

const client = (key: string) => new StorageClient(`${base}/default/v1`, { apikey: key, Authorization: `Bearer ${key}` });
const service = () => client(p.keys.service_role);
const anon = () => client(p.keys.anon);

/**
 * The error storage-js surfaced: the HTTP status (400 for every refusal, as Supabase Storage sends
 * them, but a role the API refuses), the status the body names, and the message.
 */
function failure(error: unknown): { status: number; statusCode: string; message: string } {
  expect(error).toBeInstanceOf(StorageApiError);
  const { status, statusCode, message } = error as StorageApiError;
  return { status, statusCode: String(statusCode), message };
}

/** Data of a successful call, checked against the route's reply schema. */
function ok<T>(result: { data: T | null; error: unknown }, schema: (typeof storageApiBucketRoutes)[keyof typeof storageApiBucketRoutes]['response']): T {
  expect(result.error).toBeNull();
  expect(check(schema, result.data)).toBeNull();
  return result.data as T;
}

async function addObject(bucketId: string, name: string): Promise<string> {
  const { rows } = await p.sql(
    `insert into storage.objects (bucket_id, name, version, metadata) values ($1, $2, gen_random_uuid()::text, '{}') returning id::text, version`,
    [bucketId, name],
  );
  const key = objectStorageKey('default', bucketId, rows[0].id, rows[0].version);
  await new DiskBackend(p.backendDir).put(key, Readable.from([Buffer.from(name)]), { contentType: 'text/plain', cacheControl: '3600', maxBytes: 1024 });
  return key;
}

describe('storage-js with the service role key', () => {
  it('creates, reads, lists, updates, empties and deletes a bucket', async () => {
    const created = ok(await service().createBucket('avatars', { public: true, fileSizeLimit: '1MB', allowedMimeTypes: ['image/*'] }), storageApiBucketRoutes.createBucket.response);
    expect(created).toEqual({ name: 'avatars' });
    ok(await service().createBucket('backups'), storageApiBucketRoutes.createBucket.response);

    const bucket = ok(await service().getBucket('avatars'), storageApiBucketRoutes.getBucket.response);
    expect(bucket).toMatchObject({ id: 'avatars', name: 'avatars', public: true, file_size_limit: 1024 * 1024, allowed_mime_types: ['image/*'] });
    expect(ok(await service().getBucket('backups'), storageApiBucketRoutes.getBucket.response)).toMatchObject({ public: false, file_size_limit: null });

    const all = ok(await service().listBuckets(), storageApiBucketRoutes.listBuckets.response);
    expect(all.map((b) => b.name)).toEqual(['avatars', 'backups']);
    const page = ok(await service().listBuckets({ sortColumn: 'name', sortOrder: 'desc', limit: 1 }), storageApiBucketRoutes.listBuckets.response);
    expect(page.map((b) => b.name)).toEqual(['backups']);
    const second = ok(await service().listBuckets({ sortColumn: 'name', sortOrder: 'desc', limit: 1, offset: 1 }), storageApiBucketRoutes.listBuckets.response);
    expect(second.map((b) => b.name)).toEqual(['avatars']);
    const found = ok(await service().listBuckets({ search: 'VAT' }), storageApiBucketRoutes.listBuckets.response);
    expect(found.map((b) => b.name)).toEqual(['avatars']);
    expect(ok(await service().listBuckets({ search: '%' }), storageApiBucketRoutes.listBuckets.response)).toEqual([]);

    const updated = ok(await service().updateBucket('avatars', { public: false, fileSizeLimit: 2048, allowedMimeTypes: null }), storageApiBucketRoutes.updateBucket.response);
    expect(updated).toEqual({ message: 'Successfully updated' });
    expect(ok(await service().getBucket('avatars'), storageApiBucketRoutes.getBucket.response)).toMatchObject({
      public: false,
      file_size_limit: 2048,
      allowed_mime_types: null,
    });

    const keys = [await addObject('avatars', 'a.png'), await addObject('avatars', 'me/b.png')];
    const notEmpty = await service().deleteBucket('avatars');
    expect(failure(notEmpty.error)).toEqual({ status: 400, statusCode: '409', message: StorageApiMessages.bucketNotEmpty });

    expect(ok(await service().emptyBucket('avatars'), storageApiBucketRoutes.emptyBucket.response)).toEqual({ message: 'Successfully emptied' });
    const backend = new DiskBackend(p.backendDir);
    expect(await Promise.all(keys.map((key) => backend.head(key)))).toEqual([null, null]);

    expect(ok(await service().deleteBucket('avatars'), storageApiBucketRoutes.deleteBucket.response)).toEqual({ message: 'Successfully deleted' });
    expect(failure((await service().getBucket('avatars')).error)).toEqual({ status: 400, statusCode: '404', message: StorageApiMessages.bucketNotFound });
    expect(failure((await service().deleteBucket('avatars')).error)).toEqual({ status: 400, statusCode: '404', message: StorageApiMessages.bucketNotFound });
    expect(failure((await service().emptyBucket('avatars')).error)).toEqual({ status: 400, statusCode: '404', message: StorageApiMessages.bucketNotFound });
    expect(failure((await service().updateBucket('avatars', { public: true })).error)).toEqual({ status: 400, statusCode: '404', message: StorageApiMessages.bucketNotFound });
  });

  it("answers mistakes with 400 and Supabase Storage's words", async () => {
    expect(failure((await service().createBucket('public')).error)).toEqual({ status: 400, statusCode: '400', message: StorageApiMessages.invalidBucketName });
    expect(failure((await service().createBucket('trailing ')).error)).toEqual({ status: 400, statusCode: '400', message: StorageApiMessages.invalidBucketName });
    expect(failure((await service().createBucket('sized', { public: false, fileSizeLimit: -1 })).error)).toEqual({ status: 400, statusCode: '400', message: Messages.bucketSizeLimitMin });
    expect(failure((await service().createBucket('typed', { public: false, allowedMimeTypes: ['jpeg'] })).error)).toEqual({ status: 400, statusCode: '400', message: invalidMimeType('jpeg') });
    expect(failure((await service().createBucket('analytics', { public: false, type: 'ANALYTICS' })).error).status).toBe(400);
    ok(await service().createBucket('twice'), storageApiBucketRoutes.createBucket.response);
    expect(failure((await service().createBucket('twice')).error)).toEqual({ status: 400, statusCode: '409', message: StorageApiMessages.alreadyExists });

    const mismatch = await fetch(`${base}/default/v1/bucket`, {
      method: 'POST',
      headers: { apikey: p.keys.service_role, authorization: `Bearer ${p.keys.service_role}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'one', name: 'two' }),
    });
    expect(mismatch.status).toBe(400);
    expect(((await mismatch.json()) as { message: string }).message).toBe(BUCKET_ID_NOT_NAME);

    const { rows } = await p.sql(`select id from storage.buckets where id in ('public', 'trailing ', 'sized', 'typed', 'analytics', 'one', 'two')`);
    expect(rows).toEqual([]);
  });

  it('refuses a key signed with another secret', async () => {
    const forged = signJwt('another-secret-0123456789abcdef0123456789', { role: 'service_role', iss: 'dash' });
    expect(failure((await client(forged).createBucket('forged')).error)).toEqual({ status: 400, statusCode: '403', message: 'Invalid JWT: signature verification failed' });
    expect((await p.sql(`select count(*)::int as n from storage.buckets where id = 'forged'`)).rows[0].n).toBe(0);
  });
});

describe('storage-js with the anon key (row-level security decides)', () => {
  it('passes a missing privilege on in Postgres words', async () => {
    await p.sql('revoke insert on storage.buckets from anon');
    try {
      expect(failure((await anon().createBucket('unprivileged')).error)).toEqual({ status: 400, statusCode: '403', message: 'permission denied for table buckets' });
    } finally {
      await p.sql('grant insert on storage.buckets to anon');
    }
  });

  it('cannot see or create buckets without a policy', async () => {
    ok(await service().createBucket('hidden'), storageApiBucketRoutes.createBucket.response);
    expect(ok(await anon().listBuckets(), storageApiBucketRoutes.listBuckets.response)).toEqual([]);
    expect(failure((await anon().getBucket('hidden')).error)).toEqual({ status: 400, statusCode: '404', message: StorageApiMessages.bucketNotFound });

    const refused = failure((await anon().createBucket('mine')).error);
    expect(refused).toMatchObject({ status: 400, statusCode: '403' });
    // Supabase Storage's words, without Postgres's `for table "buckets"`.
    expect(refused.message).toBe(StorageApiMessages.rowLevelSecurity);
    expect((await p.sql(`select count(*)::int as n from storage.buckets where id = 'mine'`)).rows[0].n).toBe(0);

    expect(failure((await anon().updateBucket('hidden', { public: true })).error)).toEqual({ status: 400, statusCode: '404', message: StorageApiMessages.bucketNotFound });
    expect(failure((await anon().deleteBucket('hidden')).error)).toEqual({ status: 400, statusCode: '404', message: StorageApiMessages.bucketNotFound });
    expect((await p.sql(`select public from storage.buckets where id = 'hidden'`)).rows).toEqual([{ public: false }]);
  });

  it('does what the policies allow, and no more', async () => {
    await p.sql(`
      create policy "anon reads buckets" on storage.buckets for select to anon using (true);
      create policy "anon creates open buckets" on storage.buckets for insert to anon with check (public);
      create policy "anon reads objects" on storage.objects for select to anon using (true);
    `);
    expect(ok(await anon().listBuckets(), storageApiBucketRoutes.listBuckets.response).map((b) => b.name)).toContain('hidden');
    expect(ok(await anon().createBucket('open', { public: true }), storageApiBucketRoutes.createBucket.response)).toEqual({ name: 'open' });
    expect(failure((await anon().createBucket('closed', { public: false })).error)).toMatchObject({ status: 400, statusCode: '403' });

    // No delete policy on objects: emptying deletes nothing the anon role may not delete.
    const key = await addObject('open', 'kept.txt');
    ok(await anon().emptyBucket('open'), storageApiBucketRoutes.emptyBucket.response);
    expect((await p.sql(`select name from storage.objects where bucket_id = 'open'`)).rows).toEqual([{ name: 'kept.txt' }]);
    expect(await new DiskBackend(p.backendDir).head(key)).not.toBeNull();

    // Nor may it delete a bucket: no delete policy on buckets.
    expect(failure((await anon().deleteBucket('hidden')).error)).toEqual({ status: 400, statusCode: '404', message: StorageApiMessages.bucketNotFound });
    expect((await p.sql(`select count(*)::int as n from storage.buckets where id = 'hidden'`)).rows[0].n).toBe(1);
  });
});
