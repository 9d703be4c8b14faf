import http from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import { StorageApiMessages, storageApiRoutes } from '@dash/contracts';
import { signJwt } from '@dash/service-kit';
import type { StorageClient } from '@supabase/storage-js';
import type { ApiErrorReply } from '../src/api-errors';
import { contractValidator, setupProject, TEST_JWT_SECRET, type Project } from './helpers';
import { clientFor, createBucket, hasBytes, listenApi, objectRows, storedFiles } from './object-fixtures';

/*
 * The storage API driven by @supabase/storage-js, as an app developer uses it, with the service role
 * key (policies are tested in api-objects-policies.test.ts).
 */

let p: Project;
let base: string;
let storage: StorageClient;
const check = contractValidator();

beforeAll(async () => {
  p = await setupProject();
  base = await listenApi(p);
  storage = clientFor(base, p.keys.service_role);
  await createBucket(p, 'docs');
  await createBucket(p, 'archive');
  await createBucket(p, 'site', { public: true });
});

afterAll(async () => {
  await p.close();
});

const docs = () => storage.from('docs');
const text = async (blob: Blob | null) => (blob ? blob.text() : null);
/** The message of an error reply. */
const messageOf = async (res: Response) => ((await res.json()) as ApiErrorReply).message;
const rowOf = async (bucket: string, name: string) => (await objectRows(p, bucket)).find((row) => row.name === name);

describe('upload', () => {
  it('stores a Buffer with its content type and cache control, and describes it in the row', async () => {
    const { data, error } = await docs().upload('notes/hello.txt', Buffer.from('hello world'), { contentType: 'text/plain', cacheControl: '120' });
    expect(error).toBeNull();
    const row = await rowOf('docs', 'notes/hello.txt');
    expect(data).toEqual({ path: 'notes/hello.txt', id: row!.id, fullPath: 'docs/notes/hello.txt' });
    expect(row!.owner).toBeNull();
    expect(row!.metadata).toEqual({
      eTag: '"5eb63bbbe01eeed093cb22bb8f5acdc3"',
      size: 11,
      mimetype: 'text/plain',
      cacheControl: 'max-age=120',
      lastModified: expect.any(String),
      contentLength: 11,
      httpStatusCode: 200,
    });
    expect(hasBytes(p, 'docs', row!.id, row!.version)).toBe(true);
    const downloaded = await docs().download('notes/hello.txt');
    expect(await text(downloaded.data)).toBe('hello world');
  });

  it('stores a Blob and a File sent as a multipart form, with the app metadata', async () => {
    const blob = await docs().upload('forms/data.json', new Blob(['{"a":1}'], { type: 'application/json' }), { cacheControl: '60', metadata: { team: 'blue', n: 2 } });
    expect(blob.error).toBeNull();
    const file = await docs().upload('forms/photo.png', new File([Buffer.from([0x89, 0x50, 0x4e, 0x47])], 'photo.png', { type: 'image/png' }));
    expect(file.error).toBeNull();

    const info = await docs().info('forms/data.json');
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({ name: 'forms/data.json', bucketId: 'docs', size: 7, contentType: 'application/json', cacheControl: 'max-age=60', metadata: { team: 'blue', n: 2 } });
    const png = await docs().info('forms/photo.png');
    expect(png.data).toMatchObject({ size: 4, contentType: 'image/png', cacheControl: 'max-age=3600' });
    // A .json upload is a file: its bytes are stored as they came, not parsed.
    expect(await text((await docs().download('forms/data.json')).data)).toBe('{"a":1}');
  });

  it('streams a Node stream body and a raw body with x-metadata', async () => {
    const chunks = Array.from({ length: 50 }, (_, i) => Buffer.alloc(10_000, i));
    const { error } = await docs().upload('big/stream.bin', Readable.from(chunks), { contentType: 'application/octet-stream' });
    expect(error).toBeNull();
    const downloaded = await docs().download('big/stream.bin');
    expect(Buffer.from(await downloaded.data!.arrayBuffer()).equals(Buffer.concat(chunks))).toBe(true);

    const raw = await docs().upload('raw/meta.txt', Buffer.from('x'), { metadata: { source: 'raw' } });
    expect(raw.error).toBeNull();
    expect((await docs().info('raw/meta.txt')).data?.metadata).toEqual({ source: 'raw' });
  });

  it('refuses a taken name (409) unless upserting; an upsert replaces the bytes and drops the old ones', async () => {
    await docs().upload('versions/v.txt', Buffer.from('one'));
    const before = (await rowOf('docs', 'versions/v.txt'))!;

    const again = await docs().upload('versions/v.txt', Buffer.from('two'));
    expect(again.error?.message).toBe(StorageApiMessages.alreadyExists);
    expect(again.error).toMatchObject({ status: 400, statusCode: '409' });
    expect(await text((await docs().download('versions/v.txt')).data)).toBe('one');

    const upsert = await docs().upload('versions/v.txt', Buffer.from('three'), { upsert: true, contentType: 'text/markdown' });
    expect(upsert.error).toBeNull();
    const after = (await rowOf('docs', 'versions/v.txt'))!;
    expect(after.version).not.toBe(before.version);
    expect(after.metadata).toMatchObject({ size: 5, mimetype: 'text/markdown' });
    expect(await text((await docs().download('versions/v.txt')).data)).toBe('three');
    expect(hasBytes(p, 'docs', before.id, before.version)).toBe(false);
    expect(hasBytes(p, 'docs', after.id, after.version)).toBe(true);

    const updated = await docs().update('versions/v.txt', Buffer.from('four'));
    expect(updated.error).toBeNull();
    expect(await text((await docs().download('versions/v.txt')).data)).toBe('four');
    expect(hasBytes(p, 'docs', after.id, after.version)).toBe(false);
    expect((await objectRows(p, 'docs')).filter((row) => row.name === 'versions/v.txt')).toHaveLength(1);

    const created = await docs().update('versions/new.txt', Buffer.from('new'));
    expect(created.error).toBeNull();
    expect(await text((await docs().download('versions/new.txt')).data)).toBe('new');
  });

  it('answers a missing bucket with 404 "Bucket not found"', async () => {
    const { error } = await storage.from('nope').upload('x.txt', Buffer.from('x'));
    expect(error?.message).toBe(StorageApiMessages.bucketNotFound);
    expect(error).toMatchObject({ status: 400, statusCode: '404' });
  });
});

describe('list', () => {
  beforeAll(async () => {
    // storage-js puts an upload's path in the URL as it is, so a % must be sent encoded (as with Supabase).
    for (const name of ['list/b.txt', 'list/a.txt', 'list/C.txt', 'list/sub/x.txt', 'list/Sub2/y.txt', 'list/empty/.emptyFolderPlaceholder', 'list/100%25_off.txt']) {
      expect((await docs().upload(name, Buffer.from(name))).error).toBeNull();
      // Distinct creation times for the date sorts.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });

  const names = (items: Array<{ name: string }> | null) => items?.map((item) => item.name);

  it('lists folders and files together by lower-case name, hiding placeholders', async () => {
    const { data, error } = await docs().list('list');
    expect(error).toBeNull();
    expect(names(data)).toEqual(['100%_off.txt', 'a.txt', 'b.txt', 'C.txt', 'empty', 'sub', 'Sub2']);
    expect(data![6]).toEqual({ name: 'Sub2', id: null, created_at: null, updated_at: null, last_accessed_at: null, metadata: null });
    expect(data![3]).toMatchObject({ id: expect.any(String), metadata: { size: 10, mimetype: 'text/plain;charset=UTF-8' } });
    // A trailing slash names the same folder; an empty folder lists nothing.
    expect(names((await docs().list('list/')).data)).toEqual(names(data));
    expect((await docs().list('list/empty')).data).toEqual([]);
  });

  it('pages with limit and offset, sorts and searches', async () => {
    expect(names((await docs().list('list', { limit: 2, offset: 2 })).data)).toEqual(['b.txt', 'C.txt']);
    expect(names((await docs().list('list', { sortBy: { column: 'name', order: 'desc' } })).data)).toEqual(['Sub2', 'sub', 'empty', 'C.txt', 'b.txt', 'a.txt', '100%_off.txt']);
    // Sorted by a date: folders first, by name in the same order.
    expect(names((await docs().list('list', { sortBy: { column: 'created_at', order: 'desc' } })).data)).toEqual([
      'sub',
      'empty',
      'Sub2',
      '100%_off.txt',
      'C.txt',
      'a.txt',
      'b.txt',
    ]);
    expect(names((await docs().list('list', { sortBy: { column: 'created_at', order: 'asc' } })).data)).toEqual(['Sub2', 'empty', 'sub', 'b.txt', 'a.txt', 'C.txt', '100%_off.txt']);
    // Case-insensitive prefixes of the names in the folder; % and _ are plain characters.
    expect(names((await docs().list('list', { search: 's' })).data)).toEqual(['sub', 'Sub2']);
    expect(names((await docs().list('list', { search: 'c' })).data)).toEqual(['C.txt']);
    expect(names((await docs().list('list', { search: '100%_' })).data)).toEqual(['100%_off.txt']);
    expect(names((await docs().list('list', { search: '_' })).data)).toEqual([]);
    expect(names((await docs().list('', { search: 'lis' })).data)).toEqual(['list']);
  });

  it('refuses an unknown sort column and a bad folder path with 400', async () => {
    const sort = await docs().list('list', { sortBy: { column: 'size', order: 'asc' } });
    expect(sort.error?.message).toBe(StorageApiMessages.badSortColumn('size'));
    const path = await docs().list('../list');
    expect(path.error).toMatchObject({ status: 400, statusCode: '400' });
  });

  it('lists v2: flat pages with a cursor, and folders with a delimiter', async () => {
    const first = await docs().listV2({ prefix: 'list/', limit: 3 });
    expect(first.error).toBeNull();
    expect(first.data!.objects.map((o) => o.name)).toEqual(['list/100%_off.txt', 'list/C.txt', 'list/Sub2/y.txt']);
    expect(first.data!.hasNext).toBe(true);
    const rest = await docs().listV2({ prefix: 'list/', limit: 10, cursor: first.data!.nextCursor });
    expect(rest.data!.objects.map((o) => o.name)).toEqual(['list/a.txt', 'list/b.txt', 'list/empty/.emptyFolderPlaceholder', 'list/sub/x.txt']);
    expect(rest.data!.hasNext).toBe(false);
    expect(rest.data!.nextCursor).toBeUndefined();

    const delimited = await docs().listV2({ prefix: 'list/', with_delimiter: true });
    expect(delimited.data!.folders.map((f) => f.key)).toEqual(['list/Sub2/', 'list/empty/', 'list/sub/']);
    expect(delimited.data!.objects.map((o) => o.key)).toEqual(['list/100%_off.txt', 'list/C.txt', 'list/a.txt', 'list/b.txt']);
    const res = await fetch(`${base}/object/list-v2/docs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.keys.service_role}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prefix: 'list/', with_delimiter: true, limit: 2 }),
    });
    expect(check(storageApiRoutes.listObjectsV2.response, await res.json())).toBeNull();
  });
});

describe('move, copy and remove', () => {
  it('moves an object by renaming its row; its bytes stay', async () => {
    await docs().upload('moves/from.txt', Buffer.from('moving'));
    const before = (await rowOf('docs', 'moves/from.txt'))!;
    const { data, error } = await docs().move('moves/from.txt', 'moves/deep/to.txt');
    expect(error).toBeNull();
    expect(data).toEqual({ message: 'Successfully moved' });
    const after = (await rowOf('docs', 'moves/deep/to.txt'))!;
    expect(after).toMatchObject({ id: before.id, version: before.version });
    expect(await rowOf('docs', 'moves/from.txt')).toBeUndefined();
    expect(await text((await docs().download('moves/deep/to.txt')).data)).toBe('moving');
  });

  it('refuses a move onto a taken name (409) and of a missing object (404), with HTTP 400', async () => {
    await docs().upload('moves/one.txt', Buffer.from('1'));
    await docs().upload('moves/two.txt', Buffer.from('2'));
    const taken = await docs().move('moves/one.txt', 'moves/two.txt');
    expect(taken.error?.message).toBe(StorageApiMessages.alreadyExists);
    expect(await text((await docs().download('moves/two.txt')).data)).toBe('2');
    const missing = await docs().move('moves/none.txt', 'moves/three.txt');
    expect(missing.error?.message).toBe(StorageApiMessages.objectNotFound);
    expect(missing.error).toMatchObject({ status: 400, statusCode: '404' });
  });

  it('moves into another bucket, bytes and all', async () => {
    await docs().upload('moves/travel.txt', Buffer.from('travel'));
    const before = (await rowOf('docs', 'moves/travel.txt'))!;
    const { error } = await docs().move('moves/travel.txt', 'arrived/travel.txt', { destinationBucket: 'archive' });
    expect(error).toBeNull();
    expect(await text((await storage.from('archive').download('arrived/travel.txt')).data)).toBe('travel');
    expect(hasBytes(p, 'docs', before.id, before.version)).toBe(false);
    expect(hasBytes(p, 'archive', before.id, before.version)).toBe(true);
  });

  it('copies an object to a new object with its own bytes, in the bucket or another', async () => {
    await docs().upload('copies/source.txt', Buffer.from('source'), { contentType: 'text/plain', metadata: { k: 'v' } });
    const { data, error } = await docs().copy('copies/source.txt', 'copies/copy.txt');
    expect(error).toBeNull();
    expect(data).toEqual({ path: 'docs/copies/copy.txt' });
    const source = (await rowOf('docs', 'copies/source.txt'))!;
    const copy = (await rowOf('docs', 'copies/copy.txt'))!;
    expect(copy.id).not.toBe(source.id);
    expect(copy.metadata).toMatchObject({ size: 6, mimetype: 'text/plain', eTag: source.metadata!.eTag });
    expect(hasBytes(p, 'docs', copy.id, copy.version)).toBe(true);
    expect((await docs().info('copies/copy.txt')).data?.metadata).toEqual({ k: 'v' });

    const again = await docs().copy('copies/source.txt', 'copies/copy.txt');
    expect(again.error?.message).toBe(StorageApiMessages.alreadyExists);

    const across = await docs().copy('copies/source.txt', 'copied.txt', { destinationBucket: 'archive', copyMetadata: false, metadata: { mimetype: 'text/csv', cacheControl: 'max-age=5' } });
    expect(across.error).toBeNull();
    const info = await storage.from('archive').info('copied.txt');
    expect(info.data).toMatchObject({ contentType: 'text/csv', cacheControl: 'max-age=5', metadata: null });
    expect(await text((await storage.from('archive').download('copied.txt')).data)).toBe('source');
  });

  it('removes many objects, replies with those removed and deletes their bytes', async () => {
    await docs().upload('gone/1.txt', Buffer.from('1'));
    await docs().upload('gone/2.txt', Buffer.from('2'));
    const rows = (await objectRows(p, 'docs')).filter((row) => row.name.startsWith('gone/'));
    const { data, error } = await docs().remove(['gone/1.txt', 'gone/2.txt', 'gone/never.txt']);
    expect(error).toBeNull();
    expect(data!.map((o) => o.name).sort()).toEqual(['gone/1.txt', 'gone/2.txt']);
    expect(data![0]).toMatchObject({ bucket_id: 'docs', id: expect.any(String), metadata: { size: 1 } });
    expect(check(storageApiRoutes.removeObjects.response, data)).toBeNull();
    for (const row of rows) expect(hasBytes(p, 'docs', row.id, row.version)).toBe(false);
    expect(await docs().exists('gone/1.txt')).toMatchObject({ data: false });
  });
});

describe('download, info and exists', () => {
  beforeAll(async () => {
    await docs().upload('media/clip.bin', Buffer.from('0123456789'), { contentType: 'video/mp4', cacheControl: '30' });
  });
  const url = `/object/docs/media/clip.bin`;
  const auth = () => ({ authorization: `Bearer ${p.keys.service_role}` });

  it('downloads with the headers a browser needs, as a blob or a stream', async () => {
    const res = await fetch(base + url, { headers: auth() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-length')).toBe('10');
    expect(res.headers.get('cache-control')).toBe('max-age=30');
    expect(res.headers.get('etag')).toBe('"781e5e245d69b566979b86e28d23f2c7"');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(new Date(res.headers.get('last-modified')!).getTime()).not.toBeNaN();
    expect(await res.text()).toBe('0123456789');

    const stream = await docs().download('media/clip.bin').asStream();
    expect(stream.error).toBeNull();
    expect(await new Response(stream.data).text()).toBe('0123456789');
  });

  it('serves byte ranges (206), refuses ranges past the end (416) and answers HEAD and If-None-Match', async () => {
    const part = await fetch(base + url, { headers: { ...auth(), range: 'bytes=2-5' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(part.headers.get('content-length')).toBe('4');
    expect(await part.text()).toBe('2345');
    const suffix = await fetch(base + url, { headers: { ...auth(), range: 'bytes=-3' } });
    expect(await suffix.text()).toBe('789');
    const open = await fetch(base + url, { headers: { ...auth(), range: 'bytes=8-' } });
    expect(await open.text()).toBe('89');
    const past = await fetch(base + url, { headers: { ...auth(), range: 'bytes=10-' } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */10');
    expect((await messageOf(past))).toBe(StorageApiMessages.rangeNotSatisfiable);

    const head = await fetch(base + url, { method: 'HEAD', headers: auth() });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('10');
    expect(head.headers.get('content-type')).toBe('video/mp4');
    const missingHead = await fetch(`${base}/object/docs/media/none.bin`, { method: 'HEAD', headers: auth() });
    expect(missingHead.status).toBe(400);

    const cached = await fetch(base + url, { headers: { ...auth(), 'if-none-match': '"781e5e245d69b566979b86e28d23f2c7"' } });
    expect(cached.status).toBe(304);
  });

  it('describes an object (info) and tells whether it exists', async () => {
    const { data } = await docs().info('media/clip.bin');
    const row = (await rowOf('docs', 'media/clip.bin'))!;
    expect(data).toEqual({
      id: row.id,
      version: row.version,
      name: 'media/clip.bin',
      bucketId: 'docs',
      size: 10,
      contentType: 'video/mp4',
      cacheControl: 'max-age=30',
      etag: '"781e5e245d69b566979b86e28d23f2c7"',
      lastModified: row.metadata!.lastModified,
      createdAt: expect.any(String),
      metadata: null,
    });
    const res = await fetch(`${base}/object/info/docs/media/clip.bin`, { headers: auth() });
    expect(check(storageApiRoutes.objectInfo.response, await res.json())).toBeNull();
    expect(await docs().exists('media/clip.bin')).toEqual({ data: true, error: null });
    expect((await docs().exists('media/nothing.bin')).data).toBe(false);
    const missing = await docs().download('media/nothing.bin');
    expect(missing.error?.message).toBe(StorageApiMessages.objectNotFound);
  });
});

describe('signed and public URLs', () => {
  beforeAll(async () => {
    await docs().upload('private/report one.pdf', Buffer.from('%PDF secret'), { contentType: 'application/pdf' });
    await docs().upload('private/été.txt', Buffer.from('unicode'), { contentType: 'text/plain' });
    await storage.from('site').upload('index.html', Buffer.from('<h1>hi</h1>'), { contentType: 'text/html' });
  });

  it('signs a URL that serves the object without a key, as an attachment when asked', async () => {
    const { data, error } = await docs().createSignedUrl('private/report one.pdf', 60);
    expect(error).toBeNull();
    expect(data!.signedUrl.startsWith(`${base}/object/sign/docs/private/report%20one.pdf?token=`)).toBe(true);
    const res = await fetch(data!.signedUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(await res.text()).toBe('%PDF secret');

    const unicode = await docs().createSignedUrl('private/été.txt', 60, { download: true });
    const saved = await fetch(unicode.data!.signedUrl);
    expect(await saved.text()).toBe('unicode');
    expect(saved.headers.get('content-disposition')).toBe(`attachment; filename="_t_.txt"; filename*=UTF-8''%C3%A9t%C3%A9.txt`);
    const named = await docs().createSignedUrl('private/été.txt', 60, { download: 'copy.txt' });
    expect((await fetch(named.data!.signedUrl)).headers.get('content-disposition')).toContain('filename="copy.txt"');

    const missing = await docs().createSignedUrl('private/none.pdf', 60);
    expect(missing.error?.message).toBe(StorageApiMessages.objectNotFound);
    const res2 = await fetch(`${base}/object/sign/docs/private/report%20one.pdf`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.keys.service_role}`, 'content-type': 'application/json' },
      body: JSON.stringify({ expiresIn: 60 }),
    });
    expect(check(storageApiRoutes.signObject.response, await res2.json())).toBeNull();
  });

  it('refuses expired, forged, misdirected and upload tokens', async () => {
    const path = '/object/sign/docs/private/report%20one.pdf?token=';
    const expired = signJwt(TEST_JWT_SECRET, { url: 'docs/private/report one.pdf', exp: Math.floor(Date.now() / 1000) - 10 });
    const forged = signJwt('another-secret', { url: 'docs/private/report one.pdf', exp: Math.floor(Date.now() / 1000) + 60 });
    const elsewhere = signJwt(TEST_JWT_SECRET, { url: 'docs/private/été.txt', exp: Math.floor(Date.now() / 1000) + 60 });
    const upload = signJwt(TEST_JWT_SECRET, { url: 'docs/private/report one.pdf', upload: true, owner: null, upsert: false });
    const cases: Array<[string, string, string]> = [
      [expired, 'InvalidJWT', 'Invalid JWT: token has expired'],
      [forged, 'InvalidJWT', 'Invalid JWT: signature verification failed'],
      [elsewhere, 'InvalidSignature', StorageApiMessages.signedUrlMismatch],
      [upload, 'InvalidSignature', StorageApiMessages.signedUrlPurpose],
      [p.keys.service_role, 'InvalidSignature', StorageApiMessages.signedUrlMismatch],
      ['not-a-token', 'InvalidJWT', 'Invalid JWT: malformed token'],
    ];
    for (const [token, code, message] of cases) {
      const res = await fetch(base + path + token);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ statusCode: '400', code, error: code, message });
    }
  });

  it('signs many URLs at once; a missing object gets an error in its place', async () => {
    const { data, error } = await docs().createSignedUrls(['private/été.txt', 'private/none.txt'], 60);
    expect(error).toBeNull();
    expect(data![0]).toMatchObject({ path: 'private/été.txt', error: null });
    expect(data![1]).toEqual({ path: 'private/none.txt', error: StorageApiMessages.signUnavailable, signedURL: null, signedUrl: null });
    expect(await (await fetch(data![0]!.signedUrl!)).text()).toBe('unicode');
  });

  it('serves public URLs of public buckets only', async () => {
    const { data } = storage.from('site').getPublicUrl('index.html');
    expect(data.publicUrl).toBe(`${base}/object/public/site/index.html`);
    const res = await fetch(data.publicUrl);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('<h1>hi</h1>');
    const download = await fetch(storage.from('site').getPublicUrl('index.html', { download: 'page.html' }).data.publicUrl);
    expect(download.headers.get('content-disposition')).toContain('filename="page.html"');

    const hidden = await fetch(docs().getPublicUrl('private/report one.pdf').data.publicUrl);
    expect(hidden.status).toBe(400);
    expect((await messageOf(hidden))).toBe(StorageApiMessages.bucketNotFound);
    const none = await fetch(storage.from('site').getPublicUrl('none.html').data.publicUrl);
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ statusCode: '404', code: 'NoSuchKey', error: 'not_found', message: StorageApiMessages.objectNotFound });
  });

  it('signs upload URLs that upload once, without a key, to that path only', async () => {
    const { data, error } = await docs().createSignedUploadUrl('uploads/signed.txt');
    expect(error).toBeNull();
    expect(data!.signedUrl).toContain('/object/upload/sign/docs/uploads/signed.txt?token=');
    const anonymous = clientFor(base, 'unused').from('docs');
    const uploaded = await anonymous.uploadToSignedUrl('uploads/signed.txt', data!.token, Buffer.from('signed upload'), { contentType: 'text/plain' });
    expect(uploaded.error).toBeNull();
    expect(uploaded.data).toMatchObject({ path: 'uploads/signed.txt', fullPath: 'docs/uploads/signed.txt' });
    expect(await text((await docs().download('uploads/signed.txt')).data)).toBe('signed upload');

    const twice = await anonymous.uploadToSignedUrl('uploads/signed.txt', data!.token, Buffer.from('again'));
    expect(twice.error?.message).toBe(StorageApiMessages.alreadyExists);
    const elsewhere = await anonymous.uploadToSignedUrl('uploads/other.txt', data!.token, Buffer.from('x'));
    expect(elsewhere.error?.message).toBe(StorageApiMessages.signedUrlMismatch);
    const download = await docs().createSignedUrl('uploads/signed.txt', 60);
    const token = new URL(download.data!.signedUrl).searchParams.get('token')!;
    const wrongKind = await anonymous.uploadToSignedUrl('uploads/signed.txt', token, Buffer.from('x'));
    expect(wrongKind.error?.message).toBe(StorageApiMessages.signedUrlPurpose);

    const upsert = await docs().createSignedUploadUrl('uploads/signed.txt', { upsert: true });
    const replaced = await anonymous.uploadToSignedUrl('uploads/signed.txt', upsert.data!.token, new Blob(['replaced'], { type: 'text/plain' }));
    expect(replaced.error).toBeNull();
    expect(await text((await docs().download('uploads/signed.txt')).data)).toBe('replaced');
  });
});

describe('streaming', () => {
  v8.setFlagsFromString('--expose-gc');
  const collect = vm.runInNewContext('gc') as () => void;
  /** Live memory after full collections (freed buffers are released a moment after a collection). */
  const liveBytes = async () => {
    collect();
    await new Promise((resolve) => setTimeout(resolve, 30));
    collect();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };

  /**
   * Sends a body over plain HTTP: Node's fetch keeps every chunk of a streamed request body until the
   * request ends (on the client's side), which would hide what the service holds.
   */
  const postStream = (path: string, body: Readable) =>
    new Promise<number>((resolve, reject) => {
      const url = new URL(base);
      const headers = { authorization: `Bearer ${p.keys.service_role}`, 'content-type': 'application/octet-stream' };
      const req = http.request({ host: url.hostname, port: url.port, method: 'POST', path: `${url.pathname}${path}`, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      pipeline(body, req).catch(reject);
    });

  it('keeps memory flat while a 128 MB file goes up and comes back down', async () => {
    const size = 128 * 1024 * 1024;
    const chunk = 1024 * 1024;
    p.settings.fileSizeLimit = size;
    const baseline = await liveBytes();
    const midway: number[] = [];
    /** The file's bytes, made as they are read; half way through, the live memory is measured. */
    const generated = Readable.from(
      (async function* () {
        for (let sent = 0; sent < size; sent += chunk) {
          if (sent === size / 2) midway.push((await liveBytes()) - baseline);
          yield Buffer.alloc(chunk, sent / chunk);
        }
      })(),
    );
    try {
      expect(await postStream('/object/docs/huge/file.bin', generated)).toBe(200);
      const res = await fetch(`${base}/object/docs/huge/file.bin`, { headers: { authorization: `Bearer ${p.keys.service_role}` } });
      expect(res.headers.get('content-length')).toBe(String(size));
      let received = 0;
      let misplaced = 0;
      for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
        if (received < size / 2 && received + part.length >= size / 2) midway.push((await liveBytes()) - baseline);
        // Every byte is its chunk's number: a send buffer reused too early would show another's.
        for (let i = 0; i < part.length; i++) if (part[i] !== (Math.floor((received + i) / chunk) & 0xff)) misplaced++;
        received += part.length;
      }
      expect(received).toBe(size);
      expect(misplaced).toBe(0);
      // Half of the file is 64 MB; streaming holds a few chunks at a time, on the way up and down.
      expect(midway).toHaveLength(2);
      for (const used of midway) expect(used).toBeLessThan(16 * 1024 * 1024);
      expect((await rowOf('docs', 'huge/file.bin'))!.metadata).toMatchObject({ size });
    } finally {
      p.settings.fileSizeLimit = 50 * 1024 * 1024;
      await docs().remove(['huge/file.bin']);
    }
    // A hang guard, not a timing: 256 MB through HTTP, synced to disk, and every byte checked in JS takes
    // most of a minute on a busy 2-core machine.
  }, 180_000);
});

describe('keys', () => {
  const listWith = (headers: Record<string, string>) =>
    fetch(`${base}/object/list/docs`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ prefix: '' }) });

  it('takes the key from Authorization or apikey, and refuses missing, bad and foreign-role tokens', async () => {
    expect((await listWith({ apikey: p.keys.service_role })).status).toBe(200);
    const list = await listWith({ authorization: `Bearer ${p.keys.service_role}` });
    expect(check(storageApiRoutes.listObjects.response, await list.json())).toBeNull();

    // Refused as Supabase Storage refuses a token: HTTP 400 naming 403; a role the API does not serve, HTTP 403.
    const denied = (message: string) => ({ statusCode: '403', code: 'AccessDenied', error: 'Unauthorized', message });
    const none = await listWith({});
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual(denied(StorageApiMessages.missingKey));
    const bad = await listWith({ apikey: signJwt('wrong-secret', { role: 'anon' }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual(denied('Invalid JWT: signature verification failed'));
    const superuser = await listWith({ apikey: signJwt(TEST_JWT_SECRET, { role: 'postgres' }) });
    expect(superuser.status).toBe(403);
    expect(await superuser.json()).toEqual(denied(StorageApiMessages.roleNotAllowed('postgres')));
  });

  it('leaves no stray files behind the operations above', async () => {
    const rows = await objectRows(p, 'docs');
    const expected = rows.map((row) => `${row.id}/${row.version}`).sort();
    const files = storedFiles(p, 'docs').map((file) => file.split('/').slice(-2).join('/')).sort();
    expect(files).toEqual(expected);
  });
});
