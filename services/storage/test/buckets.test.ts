import { Readable } from 'node:stream';
import { ErrorReply, Messages, StorageApiMessages, storageRoutes, type Bucket } from '@dash/contracts';
import { userHeaders } from '@dash/service-kit/dist/testing';
import { DiskBackend } from '../src/backend/disk';
import { objectStorageKey } from '../src/backend/types';
import { invalidMimeType } from '../src/bucket-rules';
import { BUCKET_NOT_EMPTY } from '../src/routes/buckets';
import { as, contractValidator, setupProject, type Project } from './helpers';

let p: Project;
const check = contractValidator();

beforeAll(async () => {
  p = await setupProject();
});

afterAll(async () => {
  await p.close();
});

const list = (headers = as('owner')) => p.app.inject({ method: 'GET', url: '/default/buckets', headers });
const create = (payload: object, headers = as('owner')) => p.app.inject({ method: 'POST', url: '/default/buckets', headers, payload });

describe('buckets', () => {
  it('lists no buckets in a new project', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(check(storageRoutes.listBuckets.response, res.json())).toBeNull();
  });

  it('creates a bucket and lists it', async () => {
    const res = await create({ id: 'avatars', public: true, file_size_limit: 1048576, allowed_mime_types: ['image/*', 'image/png'] });
    expect(res.statusCode).toBe(201);
    const bucket = res.json() as Bucket;
    expect(bucket).toMatchObject({
      id: 'avatars',
      name: 'avatars',
      owner: null,
      public: true,
      file_size_limit: 1048576,
      allowed_mime_types: ['image/*', 'image/png'],
    });
    expect(new Date(bucket.created_at).toISOString()).toBe(bucket.created_at);
    expect(check(storageRoutes.createBucket.response, bucket)).toBeNull();

    const { rows } = await p.sql(`select id, name, public, file_size_limit from storage.buckets`);
    expect(rows).toEqual([{ id: 'avatars', name: 'avatars', public: true, file_size_limit: 1048576 }]);

    await create({ id: 'zeta docs', public: false });
    await create({ id: 'beta', public: false, file_size_limit: null, allowed_mime_types: [] });
    const listed = await list();
    expect(listed.statusCode).toBe(200);
    const buckets = listed.json() as Bucket[];
    expect(buckets.map((b) => b.name)).toEqual(['avatars', 'beta', 'zeta docs']);
    expect(buckets[2]).toMatchObject({ file_size_limit: null });
    expect(buckets[1]).toMatchObject({ public: false, file_size_limit: null, allowed_mime_types: null });
    expect(check(storageRoutes.listBuckets.response, buckets)).toBeNull();
  });

  it('keeps a null size limit as no limit and a zero limit as zero', async () => {
    const unlimited = await create({ id: 'unlimited', public: false, file_size_limit: null, allowed_mime_types: null });
    expect(unlimited.json()).toMatchObject({ file_size_limit: null, allowed_mime_types: null });
    const zero = await create({ id: 'zero', public: false, file_size_limit: 0 });
    expect(zero.json()).toMatchObject({ file_size_limit: 0 });
    const { rows } = await p.sql(`select id, file_size_limit from storage.buckets where id in ('unlimited', 'zero') order by id`);
    expect(rows).toEqual([
      { id: 'unlimited', file_size_limit: null },
      { id: 'zero', file_size_limit: 0 },
    ]);
  });

  it('answers 409 for a duplicate name', async () => {
    await create({ id: 'dupe', public: false });
    const res = await create({ id: 'dupe', public: true });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The resource already exists: bucket "dupe"');
    expect(check(ErrorReply, res.json())).toBeNull();
  });

  it('rejects names the spec forbids with its messages', async () => {
    const cases: Array<[object, string]> = [
      [{ id: 'public', public: true }, Messages.bucketNameReserved],
      [{ id: 'trailing ', public: true }, Messages.bucketNameTrailingWhitespace],
      [{ id: '   ', public: true }, Messages.bucketNameRequired],
      [{ id: '', public: true }, Messages.bucketNameRequired],
      [{ public: true }, Messages.bucketNameRequired],
      [{ id: 'sized', public: true, file_size_limit: -1 }, Messages.bucketSizeLimitMin],
    ];
    for (const [payload, message] of cases) {
      const res = await create(payload);
      expect({ payload, status: res.statusCode, message: res.json().message }).toEqual({ payload, status: 400, message });
      expect(check(ErrorReply, res.json())).toBeNull();
    }
    const names = ((await list()).json() as Bucket[]).map((b) => b.name);
    expect(names).not.toContain('public');
    expect(names).not.toContain('sized');
  });

  it('rejects other invalid bodies with a 400', async () => {
    const slash = await create({ id: 'a/b', public: true });
    expect(slash.statusCode).toBe(400);
    const noPublic = await create({ id: 'nopublic' });
    expect(noPublic.statusCode).toBe(400);
    expect(noPublic.json().message).toMatch(/public/);
  });

  it('lets a read_only member list but not create', async () => {
    expect((await list(as('read_only'))).statusCode).toBe(200);
    const res = await create({ id: 'nope', public: false }, as('read_only'));
    expect(res.statusCode).toBe(403);
    expect(check(ErrorReply, res.json())).toBeNull();
    const { rows } = await p.sql(`select count(*)::int as n from storage.buckets where id = 'nope'`);
    expect(rows[0].n).toBe(0);
  });

  it('answers 404 to a non-member and 401 without identity', async () => {
    const outsider = await list(userHeaders({ other: 'owner' }));
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().message).toBe('Project not found');
    expect((await create({ id: 'x', public: false }, userHeaders({ other: 'owner' }))).statusCode).toBe(404);
    const anonymous = await p.app.inject({ method: 'GET', url: '/default/buckets' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers 404 for a project the resolver does not know', async () => {
    const res = await p.app.inject({ method: 'GET', url: '/ghost/buckets', headers: as('owner', 'ghost') });
    expect(res.statusCode).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------
// Update, empty and delete (dashboard routes, run as the database owner after the member's check)
// ---------------------------------------------------------------------------------------------

const patch = (id: string, payload: object, headers = as('owner')) =>
  p.app.inject({ method: 'PATCH', url: `/default/buckets/${encodeURIComponent(id)}`, headers, payload });
const empty = (id: string, headers = as('owner')) =>
  p.app.inject({ method: 'POST', url: `/default/buckets/${encodeURIComponent(id)}/empty`, headers });
const remove = (id: string, headers = as('owner')) =>
  p.app.inject({ method: 'DELETE', url: `/default/buckets/${encodeURIComponent(id)}`, headers });

/** Object rows with bytes at their backend keys, as uploads leave them. */
async function addObjects(bucketId: string, names: string[], withBytes = true): Promise<string[]> {
  const backend = new DiskBackend(p.backendDir);
  const keys: string[] = [];
  const { rows } = await p.sql(
    `insert into storage.objects (bucket_id, name, version, metadata)
     select $1, n, gen_random_uuid()::text, '{}' from unnest($2::text[]) n returning id::text, version`,
    [bucketId, names],
  );
  for (const row of rows as Array<{ id: string; version: string }>) {
    const key = objectStorageKey('default', bucketId, row.id, row.version);
    if (withBytes) await backend.put(key, Readable.from([Buffer.from(`bytes of ${row.id}`)]), { contentType: 'text/plain', cacheControl: '3600', maxBytes: 1024 });
    keys.push(key);
  }
  return keys;
}

const bytesExist = async (keys: string[]) => {
  const backend = new DiskBackend(p.backendDir);
  return Promise.all(keys.map(async (key) => (await backend.head(key)) !== null));
};

const objectCount = async (bucketId: string) =>
  (await p.sql('select count(*)::int as n from storage.objects where bucket_id = $1', [bucketId])).rows[0].n as number;

const objectPolicies = async () =>
  (await p.sql(`select policyname from pg_policies where schemaname = 'storage' and tablename = 'objects' order by policyname`)).rows.map(
    (r) => r.policyname as string,
  );

describe('updating a bucket', () => {
  beforeAll(async () => {
    await create({ id: 'editable', public: true, file_size_limit: 2048, allowed_mime_types: ['image/*'] });
  });

  it('changes the fields given and keeps the rest', async () => {
    const before = (await p.sql(`select updated_at from storage.buckets where id = 'editable'`)).rows[0].updated_at as Date;
    const res = await patch('editable', { public: false }, as('developer'));
    expect(res.statusCode).toBe(200);
    const bucket = res.json() as Bucket;
    expect(check(storageRoutes.updateBucket.response, bucket)).toBeNull();
    expect(bucket).toMatchObject({ id: 'editable', name: 'editable', public: false, file_size_limit: 2048, allowed_mime_types: ['image/*'] });
    expect(new Date(bucket.updated_at).getTime()).toBeGreaterThan(before.getTime());

    const cleared = (await patch('editable', { file_size_limit: null, allowed_mime_types: [' text/plain ', 'text/plain'] })).json() as Bucket;
    expect(cleared).toMatchObject({ public: false, file_size_limit: null, allowed_mime_types: ['text/plain'] });
    const { rows } = await p.sql(`select public, file_size_limit, allowed_mime_types from storage.buckets where id = 'editable'`);
    expect(rows).toEqual([{ public: false, file_size_limit: null, allowed_mime_types: ['text/plain'] }]);
  });

  it('refuses a rename and bad values with 400s', async () => {
    const cases: Array<[object, string | RegExp]> = [
      [{ name: 'renamed' }, /must NOT have additional properties/],
      [{ id: 'renamed' }, /must NOT have additional properties/],
      [{ file_size_limit: -1 }, Messages.bucketSizeLimitMin],
      [{ file_size_limit: 'big' }, /file_size_limit/],
      [{ allowed_mime_types: ['image/png', 'png'] }, invalidMimeType('png')],
      [{ public: 'yes' }, /public/],
    ];
    for (const [payload, message] of cases) {
      const res = await patch('editable', payload);
      expect({ payload, status: res.statusCode }).toEqual({ payload, status: 400 });
      expect(res.json().message).toMatch(message);
      expect(check(ErrorReply, res.json())).toBeNull();
    }
    expect((await p.sql(`select count(*)::int as n from storage.buckets where id = 'renamed'`)).rows[0].n).toBe(0);
  });

  it('answers 404 for a bucket that does not exist', async () => {
    const res = await patch('ghost', { public: true });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(StorageApiMessages.bucketNotFound);
  });

  it('is for members who may write storage: read-only 403, non-members 404', async () => {
    expect((await patch('editable', { public: true }, as('read_only'))).statusCode).toBe(403);
    expect((await patch('editable', { public: true }, userHeaders({ other: 'owner' }))).statusCode).toBe(404);
    expect((await p.sql(`select public from storage.buckets where id = 'editable'`)).rows[0].public).toBe(false);
  });
});

describe('emptying a bucket', () => {
  it('deletes every object row and its bytes, and nothing of other buckets', async () => {
    await create({ id: 'photos', public: false });
    await create({ id: 'keep', public: false });
    const photos = await addObjects('photos', ['a.png', 'folder/b.png', 'folder/deep/c.png', '.emptyFolderPlaceholder']);
    const kept = await addObjects('keep', ['a.png']);
    expect(await bytesExist(photos)).toEqual([true, true, true, true]);

    const res = await empty('photos', as('developer'));
    expect(res.statusCode).toBe(200);
    expect(check(storageRoutes.emptyBucket.response, res.json())).toBeNull();
    expect(res.json().message).toMatch(/photos.*4 objects/);
    expect(await objectCount('photos')).toBe(0);
    expect(await bytesExist(photos)).toEqual([false, false, false, false]);
    expect(await objectCount('keep')).toBe(1);
    expect(await bytesExist(kept)).toEqual([true]);
    // The bucket itself stays.
    expect(((await list()).json() as Bucket[]).map((b) => b.id)).toContain('photos');
  });

  it('deletes the bytes of a large bucket in batches', async () => {
    await create({ id: 'large', public: false });
    const keys = await addObjects('large', Array.from({ length: 2100 }, (_, i) => `file-${i}.txt`), false);
    const deletes = jest.spyOn(DiskBackend.prototype, 'delete');
    try {
      expect((await empty('large')).statusCode).toBe(200);
      expect(deletes.mock.calls.map(([batch]) => batch.length)).toEqual([1000, 1000, 100]);
      expect(deletes.mock.calls.flatMap(([batch]) => [...batch]).sort()).toEqual([...keys].sort());
    } finally {
      deletes.mockRestore();
    }
    expect(await objectCount('large')).toBe(0);
  });

  it('answers 404 for a bucket that does not exist, and 403 to read-only members', async () => {
    const ghost = await empty('ghost');
    expect(ghost.statusCode).toBe(404);
    expect(ghost.json().message).toBe(StorageApiMessages.bucketNotFound);
    await addObjects('keep', ['b.png']);
    expect((await empty('keep', as('read_only'))).statusCode).toBe(403);
    expect((await empty('keep', userHeaders({ other: 'owner' }))).statusCode).toBe(404);
    expect(await objectCount('keep')).toBe(2);
  });
});

describe('deleting a bucket', () => {
  it('refuses a bucket with objects (409) and keeps it', async () => {
    await create({ id: 'full', public: false });
    await addObjects('full', ['x.txt']);
    const res = await remove('full');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(BUCKET_NOT_EMPTY);
    expect(check(ErrorReply, res.json())).toBeNull();
    expect((await p.sql(`select count(*)::int as n from storage.buckets where id = 'full'`)).rows[0].n).toBe(1);
  });

  it('empties, then deletes the bucket with the policies grouped under it, and only those', async () => {
    const name = `it's "docs"`;
    await create({ id: name, public: false });
    await create({ id: 'docs2', public: false });
    const keys = await addObjects(name, ['a.txt', 'b/c.txt']);
    const literal = `'it''s "docs"'`;
    await p.sql(`
      create policy "docs read" on storage.objects for select to authenticated
        using (bucket_id = ${literal} and (storage.foldername(name))[1] = 'public');
      create policy "docs upload" on storage.objects for insert with check (${literal} = bucket_id);
      create policy "Docs ""admin"" access" on storage.objects for all using (bucket_id = ${literal}) with check (bucket_id = ${literal});
      create policy "any bucket" on storage.objects for select using (auth.role() = 'authenticated');
      create policy "docs or docs2" on storage.objects for select using (bucket_id = ${literal} or bucket_id = 'docs2');
      create policy "mentions docs" on storage.objects for select using (name = 'bucket_id = ''it''''s "docs"''');
      create policy "docs2 read" on storage.objects for select using (bucket_id = 'docs2');
      create policy "docs bucket row" on storage.buckets for select using (id = ${literal});
    `);

    // The dashboard's order: empty, then delete.
    expect((await remove(name)).statusCode).toBe(409);
    expect((await empty(name)).statusCode).toBe(200);
    expect(await bytesExist(keys)).toEqual([false, false]);
    const res = await remove(name, as('developer'));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(check(storageRoutes.deleteBucket.response, body)).toBeNull();
    expect(body).toEqual({ message: Messages.bucketDeleted(name), deletedPolicies: ['Docs "admin" access', 'docs read', 'docs upload'] });

    expect(await objectPolicies()).toEqual(['any bucket', 'docs or docs2', 'docs2 read', 'mentions docs']);
    const bucketPolicies = await p.sql(`select policyname from pg_policies where schemaname = 'storage' and tablename = 'buckets'`);
    expect(bucketPolicies.rows).toEqual([{ policyname: 'docs bucket row' }]);
    const buckets = ((await list()).json() as Bucket[]).map((b) => b.id);
    expect(buckets).not.toContain(name);
    expect(buckets).toContain('docs2');
  });

  it('answers 404 for a bucket that does not exist, 403 to read-only members and 404 to non-members', async () => {
    const ghost = await remove('ghost');
    expect(ghost.statusCode).toBe(404);
    expect(ghost.json().message).toBe(StorageApiMessages.bucketNotFound);
    await create({ id: 'guarded', public: false });
    expect((await remove('guarded', as('read_only'))).statusCode).toBe(403);
    expect((await remove('guarded', userHeaders({ other: 'owner' }))).statusCode).toBe(404);
    expect((await p.sql(`select count(*)::int as n from storage.buckets where id = 'guarded'`)).rows[0].n).toBe(1);
    expect((await remove('guarded', as('owner'))).json()).toEqual({ message: Messages.bucketDeleted('guarded'), deletedPolicies: [] });
  });
});
