import { existsSync, readdirSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { StorageApiError, type StorageClient, type TransformOptions } from '@supabase/storage-js';
import { StorageApiMessages } from '@dash/contracts';
import { signJwt } from '@dash/service-kit';
import { objectStorageKey } from '../src/backend/types';
import { setupProject, TEST_JWT_SECRET, type Project } from './helpers';
import { clientFor, createBucket, listenApi, objectRows } from './object-fixtures';

/*
 * @supabase/storage-js, unchanged, against the service over real HTTP: refusals in Supabase Storage's
 * shape (whatever refuses them, and before or after the body is read), list sorts and page caps, and
 * image transformations on downloads, public URLs and signed URLs.
 */

let p: Project;
let base: string;
let storage: StorageClient;

beforeAll(async () => {
  p = await setupProject();
  base = await listenApi(p);
  storage = clientFor(base, p.keys.service_role);
  await createBucket(p, 'files');
  await createBucket(p, 'pictures', { public: true });
  await createBucket(p, 'pdfs', { allowedMimeTypes: ['application/pdf'] });
});

afterAll(async () => {
  await p.close();
});

/** What storage-js tells an app about a refusal. */
function refusal(error: unknown): { status: number; statusCode: string; code: string | undefined; message: string } {
  expect(error).toBeInstanceOf(StorageApiError);
  const { status, statusCode, code, message } = error as StorageApiError;
  return { status, statusCode, code, message };
}

/** The reply body of a refused call made with fetch. */
const bodyOf = async (res: Response) => ({ status: res.status, body: (await res.json()) as unknown });

describe('refusals in Supabase Storage shape', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const denied = (message: string) => ({ status: 400, body: { statusCode: '403', code: 'AccessDenied', error: 'Unauthorized', message } });
  const listAs = (key: string) => fetch(`${base}/object/list/files`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"prefix":""}' });

  it('refuses a bad or an expired JWT: HTTP 400 naming 403, AccessDenied', async () => {
    const forged = signJwt('another-secret-0123456789abcdef0123456789', { role: 'service_role' });
    const expired = signJwt(TEST_JWT_SECRET, { role: 'service_role', exp: now() - 60 });
    const forgedList = await clientFor(base, forged).from('files').list();
    expect(refusal(forgedList.error)).toEqual({ status: 400, statusCode: '403', code: 'AccessDenied', message: 'Invalid JWT: signature verification failed' });
    const expiredUpload = await clientFor(base, expired).from('files').upload('x.txt', Buffer.from('x'));
    expect(refusal(expiredUpload.error)).toEqual({ status: 400, statusCode: '403', code: 'AccessDenied', message: 'Invalid JWT: token has expired' });
    expect((await clientFor(base, expired).listBuckets()).error).toMatchObject({ status: 400, statusCode: '403', code: 'AccessDenied' });
    expect(await bodyOf(await listAs(forged))).toEqual(denied('Invalid JWT: signature verification failed'));
    expect(await bodyOf(await listAs(expired))).toEqual(denied('Invalid JWT: token has expired'));
    expect(await bodyOf(await listAs('not.a.jwt'))).toEqual(denied('Invalid JWT: malformed token'));
  });

  it('refuses a duplicate upload: 409, "The resource already exists", Duplicate', async () => {
    expect((await storage.from('files').upload('dup.txt', Buffer.from('one'))).error).toBeNull();
    const again = await storage.from('files').upload('dup.txt', Buffer.from('two'));
    expect(refusal(again.error)).toEqual({ status: 400, statusCode: '409', code: 'ResourceAlreadyExists', message: 'The resource already exists' });
    const raw = await fetch(`${base}/object/files/dup.txt`, { method: 'POST', headers: { authorization: `Bearer ${p.keys.service_role}`, 'content-type': 'text/plain' }, body: 'three' });
    expect(await bodyOf(raw)).toEqual({ status: 400, body: { statusCode: '409', code: 'ResourceAlreadyExists', error: 'Duplicate', message: 'The resource already exists' } });
    const bucket = await storage.createBucket('files');
    expect(refusal(bucket.error)).toEqual({ status: 400, statusCode: '409', code: 'ResourceAlreadyExists', message: 'The resource already exists' });
  });

  it('refuses a missing object and a missing bucket: 404, NoSuchKey and NoSuchBucket', async () => {
    const missing = await storage.from('files').download('none.txt');
    expect(refusal(missing.error)).toEqual({ status: 400, statusCode: '404', code: 'NoSuchKey', message: 'Object not found' });
    expect(refusal((await storage.from('files').info('none.txt')).error)).toMatchObject({ statusCode: '404', code: 'NoSuchKey' });
    expect(refusal((await storage.from('files').move('none.txt', 'other.txt')).error)).toMatchObject({ statusCode: '404', code: 'NoSuchKey' });
    expect(await bodyOf(await fetch(`${base}/object/files/none.txt`, { headers: { authorization: `Bearer ${p.keys.service_role}` } }))).toEqual({
      status: 400,
      body: { statusCode: '404', code: 'NoSuchKey', error: 'not_found', message: 'Object not found' },
    });
    expect(refusal((await storage.getBucket('nowhere')).error)).toEqual({ status: 400, statusCode: '404', code: 'NoSuchBucket', message: 'Bucket not found' });
    expect(await bodyOf(await fetch(`${base}/object/public/nowhere/a.txt`))).toEqual({
      status: 400,
      body: { statusCode: '404', code: 'NoSuchBucket', error: 'Bucket not found', message: 'Bucket not found' },
    });
  });

  it('refuses deleting a bucket that is not empty: 409, ResourceNotEmpty', async () => {
    expect((await storage.createBucket('full')).error).toBeNull();
    expect((await storage.from('full').upload('kept.txt', Buffer.from('kept'))).error).toBeNull();
    const refused = await storage.deleteBucket('full');
    expect(refusal(refused.error)).toEqual({ status: 400, statusCode: '409', code: 'ResourceNotEmpty', message: 'The bucket you tried to delete is not empty' });
    expect((await storage.getBucket('full')).error).toBeNull();
    expect((await storage.emptyBucket('full')).error).toBeNull();
    expect((await storage.deleteBucket('full')).error).toBeNull();
  });

  it('refuses a bucket that row-level security keeps out: 403, AccessDenied, without the table name', async () => {
    // No policy on storage.buckets lets the anon role insert.
    const refused = await clientFor(base, p.keys.anon).createBucket('by-anon');
    expect(refusal(refused.error)).toEqual({ status: 400, statusCode: '403', code: 'AccessDenied', message: 'new row violates row-level security policy' });
    const raw = await fetch(`${base}/bucket`, { method: 'POST', headers: { authorization: `Bearer ${p.keys.anon}`, 'content-type': 'application/json' }, body: '{"name":"by-anon"}' });
    expect(await bodyOf(raw)).toEqual({ status: 400, body: { statusCode: '403', code: 'AccessDenied', error: 'Unauthorized', message: 'new row violates row-level security policy' } });
    expect((await p.sql(`select count(*)::int as n from storage.buckets where id = 'by-anon'`)).rows[0].n).toBe(0);
  });

  it('signs many paths, naming per path one that does not exist or that the caller cannot see', async () => {
    expect((await storage.from('files').upload('signable.txt', Buffer.from('signable'))).error).toBeNull();
    const unavailable = 'Either the object does not exist or you do not have access to it';
    const { data, error } = await storage.from('files').createSignedUrls(['signable.txt', 'missing.txt'], 60);
    expect(error).toBeNull();
    expect(data![0]).toMatchObject({ path: 'signable.txt', error: null, signedUrl: expect.stringContaining('/object/sign/files/signable.txt?token=') });
    expect(data![1]).toEqual({ path: 'missing.txt', error: unavailable, signedURL: null, signedUrl: null });
    // The anon role sees no object (no policy on storage.objects): the same words, nothing signed.
    const hidden = await clientFor(base, p.keys.anon).from('files').createSignedUrls(['signable.txt'], 60);
    expect(hidden.data).toEqual([{ path: 'signable.txt', error: unavailable, signedURL: null, signedUrl: null }]);
  });

  it('answers a route that does not exist: 404, InvalidRequest, naming the method and the path', async () => {
    const notFound = (method: string, path: string) => ({ status: 404, body: { statusCode: '404', code: 'InvalidRequest', error: 'Not Found', message: `Route ${method}:${path} not found` } });
    const key = { authorization: `Bearer ${p.keys.service_role}` };
    expect(await bodyOf(await fetch(`${base}/nowhere`, { headers: key }))).toEqual(notFound('GET', '/nowhere'));
    expect(await bodyOf(await fetch(`${base}/bucket/files/extra?x=1`, { method: 'DELETE', headers: key }))).toEqual(notFound('DELETE', '/bucket/files/extra?x=1'));
    // No key either: a missing route is not a refused key.
    expect(await bodyOf(await fetch(`${base}/object/files`, { method: 'PATCH' }))).toEqual(notFound('PATCH', '/object/files'));
    // storage-js pointed at a wrong base URL reads it as a storage error.
    const lost = await clientFor(`${base}/v2`, p.keys.service_role).listBuckets();
    expect(refusal(lost.error)).toEqual({ status: 404, statusCode: '404', code: 'InvalidRequest', message: 'Route GET:/v2/bucket not found' });
  });

  it('refuses invalid bucket and object names: InvalidBucketName and InvalidKey', async () => {
    for (const name of ['a/b', 'public', 'trailing ', 'x'.repeat(101)]) {
      const { error } = await storage.createBucket(name);
      expect({ name, ...refusal(error) }).toEqual({ name, status: 400, statusCode: '400', code: 'InvalidBucketName', message: 'Bucket name invalid' });
    }
    const raw = await fetch(`${base}/bucket`, { method: 'POST', headers: { authorization: `Bearer ${p.keys.service_role}`, 'content-type': 'application/json' }, body: '{"name":"a/b"}' });
    expect(await bodyOf(raw)).toEqual({ status: 400, body: { statusCode: '400', code: 'InvalidBucketName', error: 'Invalid Input', message: 'Bucket name invalid' } });
    // storage-js puts the path in the URL as it is (a backslash or `..` would be normalised away by fetch).
    const long = 'x'.repeat(1025);
    const key = await storage.from('files').upload(long, Buffer.from('x'));
    expect(refusal(key.error)).toEqual({ status: 400, statusCode: '400', code: 'InvalidKey', message: `Invalid key: ${long}` });
    const nul = await storage.from('files').download('a%00b.txt');
    expect(refusal(nul.error)).toEqual({ status: 400, statusCode: '400', code: 'InvalidKey', message: 'Invalid key: a\u0000b.txt' });
  });
});

describe('uploads refused before their body is read', () => {
  const MB = 1024 * 1024;
  const big = () => new Blob([Buffer.alloc(8 * MB, 7)], { type: 'application/pdf' });

  afterEach(() => {
    p.settings.fileSizeLimit = 50 * MB;
  });

  it('answers 20 oversize Blob uploads in a row with the error, never "fetch failed"', async () => {
    p.settings.fileSizeLimit = MB;
    for (let i = 0; i < 20; i++) {
      const { error } = await storage.from('files').upload(`big/${i}.bin`, big());
      expect({ i, ...refusal(error) }).toEqual({ i, status: 400, statusCode: '413', code: 'EntityTooLarge', message: StorageApiMessages.tooLarge });
    }
    expect((await objectRows(p, 'files')).filter((row) => row.name.startsWith('big/'))).toEqual([]);
  });

  it('answers Blob uploads refused for their type, a policy, a missing bucket or a token for another path', async () => {
    const anon = clientFor(base, p.keys.anon);
    const { data: signed } = await storage.from('files').createSignedUploadUrl('signed/here.pdf');
    for (let i = 0; i < 5; i++) {
      const type = await storage.from('pdfs').upload(`t${i}.bin`, new Blob([Buffer.alloc(8 * MB)], { type: 'application/octet-stream' }));
      expect(refusal(type.error)).toMatchObject({ statusCode: '415', code: 'InvalidMimeType' });
      const policy = await anon.from('files').upload(`p${i}.pdf`, big());
      expect(refusal(policy.error)).toMatchObject({ statusCode: '403', code: 'AccessDenied', message: StorageApiMessages.rowLevelSecurity });
      const bucket = await storage.from('nowhere').upload(`b${i}.pdf`, big());
      expect(refusal(bucket.error)).toMatchObject({ statusCode: '404', code: 'NoSuchBucket' });
      const elsewhere = await anon.from('files').uploadToSignedUrl(`signed/elsewhere${i}.pdf`, signed!.token, big());
      expect(refusal(elsewhere.error)).toMatchObject({ statusCode: '400', code: 'InvalidSignature', message: StorageApiMessages.signedUrlMismatch });
    }
  });
});

describe('a refused upload', () => {
  it('is answered once its whole body has arrived, so no client leaves it half sent', async () => {
    // The requests as the service received them, to see whether each arrived whole.
    const received: IncomingMessage[] = [];
    const track = (request: IncomingMessage) => {
      if (request.url?.includes('/object/files/refused/')) received.push(request);
    };
    p.app.server.on('request', track);
    try {
      const anon = clientFor(base, p.keys.anon);
      for (let i = 0; i < 5; i++) {
        const { error } = await anon.from('files').upload(`refused/${i}.pdf`, new Blob([Buffer.alloc(900_000, 1)], { type: 'application/pdf' }));
        expect(refusal(error)).toMatchObject({ statusCode: '403', code: 'AccessDenied' });
      }
      expect(received.map((request) => request.complete)).toEqual([true, true, true, true, true]);
    } finally {
      p.app.server.off('request', track);
    }
  });
});

describe('list', () => {
  const files = ['sorted/one.txt', 'sorted/two.txt', 'sorted/three.txt'];
  // Each column orders the files differently.
  const times: Record<'created_at' | 'updated_at' | 'last_accessed_at', string[]> = {
    created_at: ['one.txt', 'two.txt', 'three.txt'],
    updated_at: ['three.txt', 'one.txt', 'two.txt'],
    last_accessed_at: ['two.txt', 'three.txt', 'one.txt'],
  };

  beforeAll(async () => {
    for (const name of [...files, 'sorted/sub/x.txt', 'sorted/Alpha/y.txt']) expect((await storage.from('files').upload(name, Buffer.from(name))).error).toBeNull();
    for (const [column, order] of Object.entries(times)) {
      for (const [i, name] of order.entries()) {
        await p.sql(`update storage.objects set ${column} = timestamptz '2026-01-01' + make_interval(days => $1) where bucket_id = 'files' and name = $2`, [i, `sorted/${name}`]);
      }
    }
  });

  const names = (items: Array<{ name: string }> | null) => items?.map((item) => item.name);

  it.each(Object.keys(times) as Array<keyof typeof times>)('sorts by %s both ways: folders first by name, then files', async (column) => {
    const asc = await storage.from('files').list('sorted', { sortBy: { column, order: 'asc' } });
    expect(asc.error).toBeNull();
    expect(names(asc.data)).toEqual(['Alpha', 'sub', ...times[column]]);
    const desc = await storage.from('files').list('sorted', { sortBy: { column, order: 'desc' } });
    expect(names(desc.data)).toEqual(['sub', 'Alpha', ...[...times[column]].reverse()]);
    expect(desc.data!.find((item) => item.name === 'one.txt')).toMatchObject({ [column]: expect.stringMatching(/^2026-01-0\dT/) });
  });

  it('sorts by name with folders and files together, and caps a page at 1500', async () => {
    expect(names((await storage.from('files').list('sorted')).data)).toEqual(['Alpha', 'one.txt', 'sub', 'three.txt', 'two.txt']);
    expect(names((await storage.from('files').list('sorted', { sortBy: { column: 'name', order: 'desc' } })).data)).toEqual(['two.txt', 'three.txt', 'sub', 'one.txt', 'Alpha']);
    await p.sql(`insert into storage.objects (bucket_id, name) select 'files', 'many/' || lpad(i::text, 4, '0') || '.txt' from generate_series(1, 1600) as i`);
    expect((await storage.from('files').list('many')).data).toHaveLength(100);
    const capped = await storage.from('files').list('many', { limit: 5000 });
    expect(capped.data).toHaveLength(1500);
    expect(capped.data![1499]!.name).toBe('1500.txt');
    expect(names((await storage.from('files').list('many', { limit: 5000, offset: 1590 })).data)).toEqual(Array.from({ length: 10 }, (_, i) => `${1591 + i}.txt`));
  });
});

describe('listV2 sorting', () => {
  // [created_at, updated_at] of each object under v2sort/. a, c, d and dir2/z were created in the same
  // millisecond (d 400 µs later): ties, broken by full path. dir1 sorts at its oldest object (y).
  const dates: Record<string, [string, string]> = {
    'a.txt': ['2026-01-03 00:00:00', '2026-02-01 10:00:00'],
    'b.txt': ['2026-01-02 00:00:00', '2026-02-01 20:00:00'],
    'c.txt': ['2026-01-03 00:00:00', '2026-02-02 06:00:00'],
    'd.txt': ['2026-01-03 00:00:00.0004', '2026-02-02 16:00:00'],
    'e.txt': ['2026-01-01 00:00:00', '2026-02-03 02:00:00'],
    'dir1/x.txt': ['2026-01-04 00:00:00', '2026-02-03 12:00:00'],
    'dir1/y.txt': ['2026-01-02 12:00:00', '2026-02-01 05:00:00'],
    'dir2/z.txt': ['2026-01-03 00:00:00', '2026-02-02 01:00:00'],
  };
  const files = () => storage.from('files');
  const keys = (page: { folders: Array<{ name: string }>; objects: Array<{ name: string }> }) => [...page.folders, ...page.objects].map((e) => e.name.slice('v2sort/'.length));

  beforeAll(async () => {
    for (const [name, [created, updated]] of Object.entries(dates)) {
      expect((await files().upload(`v2sort/${name}`, Buffer.from(name))).error).toBeNull();
      await p.sql(`update storage.objects set created_at = $1::timestamptz, updated_at = $2::timestamptz where bucket_id = 'files' and name = $3`, [`${created}+00`, `${updated}+00`, `v2sort/${name}`]);
    }
  });

  /**
   * Every entry, one page of `limit` at a time (a page lists its folders apart from its files, so
   * listings with folders are walked one entry per page to see their order), following nextCursor
   * (with or without sortBy on later pages).
   */
  async function walk(options: { with_delimiter?: boolean; sortBy?: { column: 'name' | 'created_at' | 'updated_at'; order: 'asc' | 'desc' } }, limit: number, cursorOnly = false) {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const asked = cursor && cursorOnly ? { with_delimiter: options.with_delimiter } : options;
      const { data, error } = await files().listV2({ prefix: 'v2sort/', limit, ...asked, cursor });
      expect(error).toBeNull();
      expect(data!.folders.length + data!.objects.length).toBeLessThanOrEqual(limit);
      seen.push(...keys(data!));
      if (!data!.hasNext) return seen;
      cursor = data!.nextCursor;
      expect(typeof cursor).toBe('string');
    }
    throw new Error('the listing did not end');
  }

  const flatByCreated = ['e.txt', 'b.txt', 'dir1/y.txt', 'a.txt', 'c.txt', 'd.txt', 'dir2/z.txt', 'dir1/x.txt'];
  const flatByUpdated = ['dir1/y.txt', 'a.txt', 'b.txt', 'dir2/z.txt', 'c.txt', 'd.txt', 'e.txt', 'dir1/x.txt'];

  it.each([
    ['created_at', flatByCreated],
    ['updated_at', flatByUpdated],
  ] as const)('sorts a flat listing by %s both ways, ties by full path, and pages across the ties with the cursor', async (column, expected) => {
    const asc = await files().listV2({ prefix: 'v2sort/', sortBy: { column, order: 'asc' } });
    expect(asc.error).toBeNull();
    expect(keys(asc.data!)).toEqual(expected);
    const desc = await files().listV2({ prefix: 'v2sort/', sortBy: { column, order: 'desc' } });
    expect(keys(desc.data!)).toEqual([...expected].reverse());
    for (const limit of [1, 2, 3]) {
      expect(await walk({ sortBy: { column, order: 'asc' } }, limit)).toEqual(expected);
      expect(await walk({ sortBy: { column, order: 'desc' } }, limit)).toEqual([...expected].reverse());
    }
    // The cursor carries the sort: later pages asked without sortBy continue in the same order.
    expect(await walk({ sortBy: { column, order: 'desc' } }, 2, true)).toEqual([...expected].reverse());
  });

  it('sorts folders and files together by date, a folder at its oldest object, one page at a time', async () => {
    // Created: e 1st, b 2nd, dir1/ 2nd noon (y), then a, c, d and dir2/ on the 3rd (a tie, by path).
    const byCreated = ['e.txt', 'b.txt', 'dir1/', 'a.txt', 'c.txt', 'd.txt', 'dir2/'];
    expect(await walk({ with_delimiter: true, sortBy: { column: 'created_at', order: 'asc' } }, 1)).toEqual(byCreated);
    expect(await walk({ with_delimiter: true, sortBy: { column: 'created_at', order: 'desc' } }, 1)).toEqual([...byCreated].reverse());
    expect(await walk({ with_delimiter: true, sortBy: { column: 'created_at', order: 'desc' } }, 1, true)).toEqual([...byCreated].reverse());
    // Sorted by updated_at too, a folder sorts at its oldest object's creation (as Supabase Storage's).
    const byUpdated = ['dir1/', 'dir2/', 'a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt'];
    expect(await walk({ with_delimiter: true, sortBy: { column: 'updated_at', order: 'asc' } }, 1)).toEqual(byUpdated);
    const page = await files().listV2({ prefix: 'v2sort/', with_delimiter: true, sortBy: { column: 'updated_at', order: 'desc' } });
    expect(page.data!.folders.map((f) => f.key)).toEqual(['v2sort/dir2/', 'v2sort/dir1/']);
    expect(page.data!.objects.map((o) => o.key)).toEqual(['v2sort/e.txt', 'v2sort/d.txt', 'v2sort/c.txt', 'v2sort/b.txt', 'v2sort/a.txt']);
    expect(page.data!.objects[0]).toMatchObject({ created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-02-03T02:00:00.000Z' });
  });

  it('sorts by name both ways, flat and with folders', async () => {
    const byName = ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'dir1/x.txt', 'dir1/y.txt', 'dir2/z.txt', 'e.txt'];
    expect(await walk({}, 3)).toEqual(byName);
    expect(await walk({ sortBy: { column: 'name', order: 'desc' } }, 3)).toEqual([...byName].reverse());
    expect(await walk({ with_delimiter: true, sortBy: { column: 'name', order: 'desc' } }, 1, true)).toEqual(['e.txt', 'dir2/', 'dir1/', 'd.txt', 'c.txt', 'b.txt', 'a.txt']);
  });

  it('refuses last_accessed_at, an unknown column and a forged cursor with 400', async () => {
    for (const column of ['last_accessed_at', 'size']) {
      const { error } = await files().listV2({ prefix: 'v2sort/', sortBy: { column: column as 'name' } });
      expect(refusal(error)).toMatchObject({ status: 400, statusCode: '400', message: StorageApiMessages.listV2BadSortColumn(column) });
    }
    const forged = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString('base64url');
    for (const cursor of ['not a cursor', forged(['v2sort/a.txt', 'created_at', 'asc']), forged(['v2sort/a.txt', 'created_at', 'asc', '2026-13-40T00:00:00.000Z']), forged(['v2sort/a.txt', 'created_at', 'asc', '0000-01-01T00:00:00.000Z']), forged(['k', 'id', 'asc'])]) {
      const { error } = await files().listV2({ prefix: 'v2sort/', cursor });
      expect(refusal(error)).toMatchObject({ status: 400, message: StorageApiMessages.invalidCursor });
    }
  });
});

describe('image transformations', () => {
  /** A 400×200 PNG, two colours side by side. */
  const picture = () =>
    sharp({ create: { width: 400, height: 200, channels: 3, background: '#3366cc' } })
      .composite([{ input: { create: { width: 200, height: 200, channels: 3, background: '#cc6633' } }, left: 200, top: 0 }])
      .png()
      .toBuffer();
  const sizeOf = async (data: Blob | ArrayBuffer | Buffer) => {
    const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data instanceof Blob ? await data.arrayBuffer() : data);
    const { width, height, format } = await sharp(bytes).metadata();
    return { width, height, format, bytes: bytes.length };
  };
  const pictures = () => storage.from('pictures');
  const variantsOf = async (bucket: string, name: string) => {
    const row = (await objectRows(p, bucket)).find((r) => r.name === name)!;
    const folder = path.join(p.renders.dir, 'variants', objectStorageKey('default', bucket, row.id, row.version));
    return existsSync(folder) ? readdirSync(folder) : [];
  };

  beforeAll(async () => {
    expect((await pictures().upload('cat.png', await picture(), { contentType: 'image/png' })).error).toBeNull();
    const jpeg = await sharp(await picture()).jpeg({ quality: 95 }).toBuffer();
    expect((await pictures().upload('cat.jpg', jpeg, { contentType: 'image/jpeg' })).error).toBeNull();
    expect((await pictures().upload('notes.txt', Buffer.from('not an image'), { contentType: 'text/plain' })).error).toBeNull();
  });

  it.each<[TransformOptions, { width: number; height: number }]>([
    [{ width: 100, height: 100 }, { width: 100, height: 100 }],
    [{ width: 100, height: 100, resize: 'cover' }, { width: 100, height: 100 }],
    [{ width: 100, height: 100, resize: 'contain' }, { width: 100, height: 50 }],
    [{ width: 100, height: 100, resize: 'fill' }, { width: 100, height: 100 }],
    [{ width: 100 }, { width: 100, height: 50 }],
    [{ height: 50 }, { width: 100, height: 50 }],
    [{ width: 5000 }, { width: 400, height: 200 }],
  ])('downloads with %j as %j', async (transform, size) => {
    const { data, error } = await pictures().download('cat.png', { transform });
    expect(error).toBeNull();
    expect(await sizeOf(data!)).toMatchObject({ ...size, format: 'png' });
  });

  it('converts to WebP or AVIF when asked, or when the client accepts WebP, and keeps the original format for origin', async () => {
    const webp = await pictures().download('cat.png', { transform: { width: 80, format: 'webp' } as unknown as TransformOptions });
    expect(await sizeOf(webp.data!)).toMatchObject({ width: 80, height: 40, format: 'webp' });
    const avif = await pictures().download('cat.png', { transform: { width: 80, format: 'avif' } as unknown as TransformOptions });
    expect(await sizeOf(avif.data!)).toMatchObject({ width: 80, height: 40, format: 'heif' });

    const url = pictures().getPublicUrl('cat.png', { transform: { width: 60 } }).data.publicUrl;
    const negotiated = await fetch(url, { headers: { accept: 'image/avif,image/webp,*/*' } });
    expect(negotiated.headers.get('content-type')).toBe('image/webp');
    expect(negotiated.headers.get('vary')).toBe('Accept');
    expect(await sizeOf(await negotiated.arrayBuffer())).toMatchObject({ width: 60, format: 'webp' });
    const origin = await fetch(pictures().getPublicUrl('cat.png', { transform: { width: 60, format: 'origin' } }).data.publicUrl, { headers: { accept: 'image/webp' } });
    expect(origin.headers.get('content-type')).toBe('image/png');
    expect(await sizeOf(await origin.arrayBuffer())).toMatchObject({ width: 60, format: 'png' });
  });

  it('applies the quality', async () => {
    const low = await pictures().download('cat.jpg', { transform: { width: 300, quality: 20 } });
    const high = await pictures().download('cat.jpg', { transform: { width: 300, quality: 100 } });
    const [lowSize, highSize] = [await sizeOf(low.data!), await sizeOf(high.data!)];
    expect(lowSize).toMatchObject({ width: 300, format: 'jpeg' });
    expect(highSize).toMatchObject({ width: 300, format: 'jpeg' });
    expect(lowSize.bytes).toBeLessThan(highSize.bytes);
  });

  it('transforms public URLs and signed URLs; a signed URL serves the transformation it was signed with', async () => {
    const { publicUrl } = pictures().getPublicUrl('cat.png', { transform: { width: 120, height: 120, resize: 'contain' } }).data;
    expect(publicUrl).toBe(`${base}/render/image/public/pictures/cat.png?width=120&height=120&resize=contain`);
    const pub = await fetch(publicUrl);
    expect(pub.status).toBe(200);
    expect(pub.headers.get('x-transformations')).toBe('height:120,width:120,resize:contain,quality:80');
    expect(await sizeOf(await pub.arrayBuffer())).toMatchObject({ width: 120, height: 60 });

    await createBucket(p, 'private-pictures');
    expect((await storage.from('private-pictures').upload('cat.png', await picture(), { contentType: 'image/png' })).error).toBeNull();
    const signed = await storage.from('private-pictures').createSignedUrl('cat.png', 60, { transform: { width: 50, height: 50 } });
    expect(signed.error).toBeNull();
    expect(signed.data!.signedUrl).toContain('/render/image/sign/private-pictures/cat.png?token=');
    expect(await sizeOf(await (await fetch(signed.data!.signedUrl)).arrayBuffer())).toMatchObject({ width: 50, height: 50, format: 'png' });
    // The token is the grant and the transformation: query parameters do not change it.
    expect(await sizeOf(await (await fetch(`${signed.data!.signedUrl}&width=300`)).arrayBuffer())).toMatchObject({ width: 50, height: 50 });
    // Without a transformation the signed URL serves the original, as before.
    const plain = await storage.from('private-pictures').createSignedUrl('cat.png', 60);
    expect(plain.data!.signedUrl).toContain('/object/sign/private-pictures/cat.png?token=');
    expect(await sizeOf(await (await fetch(plain.data!.signedUrl)).arrayBuffer())).toMatchObject({ width: 400, height: 200 });
    // A private bucket has no public renderings.
    expect(await bodyOf(await fetch(`${base}/render/image/public/private-pictures/cat.png?width=10`))).toMatchObject({ status: 400, body: { statusCode: '404', code: 'NoSuchBucket' } });
  });

  it('serves a second request for the same variant from the cache, and drops the variants with their version', async () => {
    const url = pictures().getPublicUrl('cat.png', { transform: { width: 77 } }).data.publicUrl;
    const before = await variantsOf('pictures', 'cat.png');
    const first = await fetch(url);
    expect(first.headers.get('x-render-cache')).toBe('miss');
    const firstBytes = Buffer.from(await first.arrayBuffer());
    const cached = await variantsOf('pictures', 'cat.png');
    expect(cached).toHaveLength(before.length + 1);
    const second = await fetch(url);
    expect(second.headers.get('x-render-cache')).toBe('hit');
    expect(Buffer.from(await second.arrayBuffer()).equals(firstBytes)).toBe(true);
    // Another variant is another entry.
    expect((await fetch(pictures().getPublicUrl('cat.png', { transform: { width: 78 } }).data.publicUrl)).headers.get('x-render-cache')).toBe('miss');
    expect(await variantsOf('pictures', 'cat.png')).toHaveLength(before.length + 2);

    // A new version is rendered anew; the old version's variants go with its bytes.
    const old = (await objectRows(p, 'pictures')).find((r) => r.name === 'cat.png')!;
    const oldFolder = path.join(p.renders.dir, 'variants', objectStorageKey('default', 'pictures', old.id, old.version));
    const small = await sharp(await picture()).resize(200).png().toBuffer();
    expect((await pictures().upload('cat.png', small, { contentType: 'image/png', upsert: true })).error).toBeNull();
    expect(existsSync(oldFolder)).toBe(false);
    const renewed = await fetch(url);
    expect(renewed.headers.get('x-render-cache')).toBe('miss');
    expect(await sizeOf(await renewed.arrayBuffer())).toMatchObject({ width: 77 });
  });

  it('refuses to render what is not an image', async () => {
    const { error } = await pictures().download('notes.txt', { transform: { width: 10 } });
    expect(refusal(error)).toEqual({ status: 400, statusCode: '400', code: 'InvalidRequest', message: StorageApiMessages.imageUnsupported });
    expect(refusal((await pictures().download('none.png', { transform: { width: 10 } })).error)).toMatchObject({ statusCode: '404', code: 'NoSuchKey' });
  });
});
