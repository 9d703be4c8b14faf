import { waitUntil } from '@dash/service-kit/dist/testing';
import http from 'node:http';
import { Readable } from 'node:stream';
import { StorageApiMessages } from '@dash/contracts';
import type { StorageClient } from '@supabase/storage-js';
import { setupProject, type Project } from './helpers';
import { clientFor, createBucket, listenApi, objectRows, storedFiles, tempFiles } from './object-fixtures';

/*
 * What an app (or an attacker holding a key) can throw at the upload path: hostile names, files too
 * large or of the wrong type, races for one name, and uploads that die half way.
 */

let p: Project;
let base: string;
let storage: StorageClient;

beforeAll(async () => {
  p = await setupProject();
  base = await listenApi(p);
  storage = clientFor(base, p.keys.service_role);
  await createBucket(p, 'names');
  await createBucket(p, 'limits', { fileSizeLimit: 500 });
  await createBucket(p, 'images', { allowedMimeTypes: ['image/*', 'application/pdf'] });
  await createBucket(p, 'race');
  await createBucket(p, 'cut');
});

afterAll(async () => {
  await p.close();
});

interface RawReply {
  status: number;
  body: string;
}

/** A request with the path exactly as given (fetch would normalise `%2e%2e` and the like). */
function rawRequest(method: string, path: string, headers: Record<string, string | number>, body?: Buffer): Promise<RawReply> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path: `${url.pathname}${path}`, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const uploadRaw = (bucket: string, encodedPath: string, body: Buffer, headers: Record<string, string | number> = {}) =>
  rawRequest('POST', `/object/${bucket}/${encodedPath}`, { authorization: `Bearer ${p.keys.service_role}`, 'content-type': 'text/plain', 'content-length': body.length, ...headers }, body);


describe('object names', () => {
  it('refuses traversal, absolute paths, backslashes, NUL, empty segments and overlong names, storing nothing', async () => {
    const paths = [
      '%2e%2e/x.txt',
      'a/%2E%2E/%2e%2e/etc/passwd',
      './x.txt',
      '/abs.txt',
      '%2Fabs.txt',
      'a%5Cb.txt',
      '..%5C..%5Cwin.ini',
      'a%00b.txt',
      'a%0Ab.txt',
      'a//b.txt',
      'folder/',
      'x'.repeat(1025),
      'é'.repeat(513).split('').map(encodeURIComponent).join(''),
    ];
    for (const path of paths) {
      const res = await uploadRaw('names', path, Buffer.from('evil'));
      const message = StorageApiMessages.invalidKey(decodeURIComponent(path));
      expect({ path, status: res.status, body: JSON.parse(res.body) }).toEqual({ path, status: 400, body: { statusCode: '400', code: 'InvalidKey', error: 'InvalidKey', message } });
    }
    // Reads and signing refuse them too, rather than reaching the database with them.
    const read = await rawRequest('GET', '/object/names/a%00b.txt', { authorization: `Bearer ${p.keys.service_role}` });
    expect(read.status).toBe(400);
    const sign = await rawRequest('POST', '/object/sign/names/%2e%2e/x', { authorization: `Bearer ${p.keys.service_role}`, 'content-type': 'application/json' }, Buffer.from('{"expiresIn":60}'));
    expect(sign.status).toBe(400);
    expect(await objectRows(p, 'names')).toEqual([]);
    expect(storedFiles(p, 'names')).toEqual([]);
  });

  it('stores unicode, quotes, semicolons and SQL-looking names literally', async () => {
    const names = ['dossier/été 🌍.txt', `quotes/it's "quoted"; drop table storage.objects;--.txt`, 'like/50%_off [x].txt', `${'n'.repeat(1020)}.txt`];
    for (const name of names) {
      const res = await uploadRaw('names', name.split('/').map(encodeURIComponent).join('/'), Buffer.from(name));
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
      expect(JSON.parse(res.body).Key).toBe(`names/${name}`);
    }
    expect((await objectRows(p, 'names')).map((row) => row.name).sort()).toEqual([...names].sort());
    const files = storage.from('names');
    expect((await files.list('quotes')).data?.map((item) => item.name)).toEqual([`it's "quoted"; drop table storage.objects;--.txt`]);
    expect((await files.list('quotes', { search: `it's "` })).data).toHaveLength(1);
    expect((await files.list('like', { search: '50%_' })).data?.map((item) => item.name)).toEqual(['50%_off [x].txt']);
    expect(await (await files.download('dossier/été 🌍.txt')).data?.text()).toBe('dossier/été 🌍.txt');
    const signed = await files.createSignedUrl('dossier/été 🌍.txt', 60);
    expect(await (await fetch(signed.data!.signedUrl)).text()).toBe('dossier/été 🌍.txt');
    const moved = await files.move(`quotes/it's "quoted"; drop table storage.objects;--.txt`, `quotes/'; --.txt`);
    expect(moved.error).toBeNull();
    expect((await files.list('quotes')).data?.map((item) => item.name)).toEqual([`'; --.txt`]);
  });
});

describe('size limits', () => {
  afterEach(() => {
    p.settings.fileSizeLimit = 50 * 1024 * 1024;
  });

  it("refuses a file over the project's limit (413), by its announced size or while streaming", async () => {
    p.settings.fileSizeLimit = 1000;
    const announced = await storage.from('names').upload('big/announced.bin', Buffer.alloc(1001));
    expect(announced.error?.message).toBe(StorageApiMessages.tooLarge);
    expect(announced.error).toMatchObject({ status: 400, statusCode: '413' });
    // A stream has no Content-Length: it is counted as it arrives.
    const streamed = await storage.from('names').upload('big/streamed.bin', Readable.from([Buffer.alloc(600), Buffer.alloc(600)]));
    expect(streamed.error?.message).toBe(StorageApiMessages.tooLarge);
    const form = await storage.from('names').upload('big/form.bin', new Blob([Buffer.alloc(1001)]));
    expect(form.error?.message).toBe(StorageApiMessages.tooLarge);
    const exact = await storage.from('names').upload('big/exact.bin', Buffer.alloc(1000));
    expect(exact.error).toBeNull();
    expect((await objectRows(p, 'names')).filter((row) => row.name.startsWith('big/')).map((row) => row.name)).toEqual(['big/exact.bin']);
    expect(tempFiles(p)).toEqual([]);
    expect(storedFiles(p, 'names')).toHaveLength((await objectRows(p, 'names')).length);
  });

  it("refuses a file over the bucket's limit, the lower of the two applying", async () => {
    const files = storage.from('limits');
    expect((await files.upload('ok.bin', Buffer.alloc(500))).error).toBeNull();
    const over = await files.upload('over.bin', Buffer.alloc(501));
    expect(over.error?.message).toBe(StorageApiMessages.tooLarge);
    const streamed = await files.upload('streamed.bin', Readable.from([Buffer.alloc(300), Buffer.alloc(300)]));
    expect(streamed.error?.message).toBe(StorageApiMessages.tooLarge);
    p.settings.fileSizeLimit = 100;
    expect((await files.upload('project.bin', Buffer.alloc(101))).error?.message).toBe(StorageApiMessages.tooLarge);
    expect((await objectRows(p, 'limits')).map((row) => row.name)).toEqual(['ok.bin']);
    expect(storedFiles(p, 'limits')).toHaveLength(1);
  });
});

describe('MIME types', () => {
  it("takes the bucket's types, wildcards included, and refuses others (415)", async () => {
    const files = storage.from('images');
    expect((await files.upload('a.png', Buffer.from('png'), { contentType: 'image/png' })).error).toBeNull();
    expect((await files.upload('b.webp', new Blob(['webp'], { type: 'image/webp' }))).error).toBeNull();
    expect((await files.upload('c.pdf', Buffer.from('pdf'), { contentType: 'Application/PDF; charset=binary' })).error).toBeNull();
    const text = await files.upload('d.txt', Buffer.from('text'), { contentType: 'text/plain' });
    expect(text.error?.message).toBe(StorageApiMessages.mimeNotAllowed('text/plain'));
    expect(text.error).toMatchObject({ status: 400, statusCode: '415' });
    const form = await files.upload('e.html', new Blob(['<p>'], { type: 'text/html' }));
    expect(form.error?.message).toBe(StorageApiMessages.mimeNotAllowed('text/html'));
    const imageish = await files.upload('f.bin', Buffer.from('x'), { contentType: 'imagex/png' });
    expect(imageish.error).toMatchObject({ status: 400, statusCode: '415' });
    expect((await objectRows(p, 'images')).map((row) => row.name)).toEqual(['a.png', 'b.webp', 'c.pdf']);
    expect(storedFiles(p, 'images')).toHaveLength(3);
  });
});

describe('content types', () => {
  it('stores a body sent without a content type as application/octet-stream, and refuses a malformed one (415)', async () => {
    const none = await rawRequest('POST', '/object/names/typeless.bin', { authorization: `Bearer ${p.keys.service_role}`, 'content-length': 3 }, Buffer.from('abc'));
    expect(none.status).toBe(200);
    expect((await storage.from('names').info('typeless.bin')).data).toMatchObject({ contentType: 'application/octet-stream', size: 3 });
    const chunked = await rawRequest('POST', '/object/names/chunked.bin', { authorization: `Bearer ${p.keys.service_role}`, 'transfer-encoding': 'chunked' }, Buffer.from('abcd'));
    expect(chunked.status).toBe(200);
    expect((await storage.from('names').info('chunked.bin')).data).toMatchObject({ size: 4 });
    const bad = await uploadRaw('names', 'bad-type.bin', Buffer.from('x'), { 'content-type': 'nonsense' });
    // Fastify refuses a Content-Type that is not type/subtype before any route sees it.
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({ statusCode: '415', code: 'InvalidMimeType', error: 'invalid_mime_type', message: 'Unsupported Media Type' });
    expect(await objectRows(p, 'names').then((rows) => rows.some((row) => row.name === 'bad-type.bin'))).toBe(false);
  });
});

describe('races', () => {
  it('lets exactly one of many uploads of one new name win; the others get 409 and leave nothing', async () => {
    const files = storage.from('race');
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => files.upload('contested.txt', Buffer.from(`upload ${i} `.repeat(2000)))));
    const winners = results.flatMap((result, i) => (result.error ? [] : [i]));
    expect(winners).toHaveLength(1);
    for (const result of results.filter((r) => r.error)) {
      expect(result.error?.message).toBe(StorageApiMessages.alreadyExists);
      expect(result.error).toMatchObject({ status: 400, statusCode: '409' });
    }
    const body = await (await files.download('contested.txt')).data!.text();
    expect(body).toBe(`upload ${winners[0]} `.repeat(2000));
    const rows = await objectRows(p, 'race');
    expect(rows).toHaveLength(1);
    expect(storedFiles(p, 'race').map((file) => file.split('/').slice(-2).join('/'))).toEqual([`${rows[0]!.id}/${rows[0]!.version}`]);
  });

  it('serialises concurrent upserts of one name: one row, one set of bytes, the last write kept', async () => {
    const files = storage.from('race');
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => files.upload('upserted.txt', Buffer.from(`version ${i}`), { upsert: true })));
    expect(results.map((r) => r.error)).toEqual(Array(8).fill(null));
    const rows = (await objectRows(p, 'race')).filter((row) => row.name === 'upserted.txt');
    expect(rows).toHaveLength(1);
    expect(results.map((r) => r.data?.id)).toContain(rows[0]!.id);
    expect(await (await files.download('upserted.txt')).data!.text()).toMatch(/^version [0-7]$/);
    expect(storedFiles(p, 'race')).toHaveLength(2);
  });
});

describe('uploads cut off half way', () => {
  /** Sends the headers and part of the body, waits until the server is streaming it, then drops the connection. */
  async function cutOff(path: string, headers: Record<string, string | number>, part: Buffer): Promise<void> {
    const url = new URL(base);
    const req = http.request({ host: url.hostname, port: url.port, method: 'POST', path: `${url.pathname}${path}`, headers });
    req.on('error', () => {});
    req.write(part);
    await waitUntil(() => tempFiles(p).length > 0, 'the upload starts');
    req.destroy();
    await waitUntil(() => storedFiles(p, 'cut').length === 0, 'the partial upload is cleaned up');
  }

  it('leaves no row and no bytes for a raw body', async () => {
    await cutOff('/object/cut/half.bin', { authorization: `Bearer ${p.keys.service_role}`, 'content-type': 'application/octet-stream', 'content-length': 200_000 }, Buffer.alloc(80_000, 1));
    expect(await objectRows(p, 'cut')).toEqual([]);
    expect((await storage.from('cut').exists('half.bin')).data).toBe(false);
  });

  it('leaves no row and no bytes for a multipart form', async () => {
    const boundary = 'cutboundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cacheControl"\r\n\r\n3600\r\n--${boundary}\r\nContent-Disposition: form-data; name=""; filename="half.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    await cutOff(
      '/object/cut/form.bin',
      { authorization: `Bearer ${p.keys.service_role}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': 200_000 },
      Buffer.concat([head, Buffer.alloc(80_000, 2)]),
    );
    expect(await objectRows(p, 'cut')).toEqual([]);
  });

  it('still serves the next upload on the same service', async () => {
    const { error } = await storage.from('cut').upload('after.bin', Buffer.from('fine'));
    expect(error).toBeNull();
    expect(await objectRows(p, 'cut')).toHaveLength(1);
  });
});
