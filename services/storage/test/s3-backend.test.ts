import { CreateBucketCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { backendFromEnv } from '../src/backend';
import { S3Backend, type S3BackendOptions } from '../src/backend/s3';
import { BytesNotFoundError, ObjectTooLargeError, objectStorageKey } from '../src/backend/types';
import { bodyOf, objectBackendSuite, readAll } from './backend-suite';

// The SDK warns once that its 2027 releases will need Node 22; this repository runs Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/** The parts of s3rver (a Koa app; it ships no types) that these tests use. */
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  status: number;
}
interface StoredObject {
  content?: Readable;
  range?: { start: number; end: number };
}
interface S3rver {
  store: {
    getObject(bucket: string, key: string, options?: { start?: number; end?: number }): Promise<StoredObject | null>;
    getResourcePath(bucket: string, key: string, resource: 'object'): string;
  };
  middleware: ((ctx: KoaContext, next: () => Promise<void>) => Promise<void>)[];
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- s3rver has no types or ES module
const S3rverServer = require('s3rver') as new (options: { address: string; port: number; silent: boolean; directory: string }) => S3rver;

const BUCKET = 'dash-storage-test';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }; // s3rver's built-in keys
const MB = 1024 * 1024;

interface Request {
  method: string;
  path: string;
  query: string[];
  uploadId?: string;
  copySource?: string;
}

let dir: string;
let server: S3rver;
let endpoint: string;
/** Every request s3rver answered, in order. */
let requests: Request[] = [];
let failAborts = false;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'dash-s3rver-'));
  server = new S3rverServer({ address: '127.0.0.1', port: 0, silent: true, directory: dir });
  // Ahead of s3rver's router (Koa composes the list when the server starts).
  server.middleware.unshift(async (ctx, next) => {
    requests.push({
      method: ctx.method,
      path: decodeURIComponent(ctx.path),
      query: Object.keys(ctx.query)
        .filter((name) => name !== 'x-id') // the SDK names each operation in the query
        .sort(),
      uploadId: ctx.query.uploadId,
      copySource: ctx.headers['x-amz-copy-source'],
    });
    // s3rver 3.7.1 has no AbortMultipartUpload (it answers 405 MethodNotAllowed): drop the upload's parts
    // where s3rver keeps them, as S3 does.
    if (ctx.method === 'DELETE' && ctx.query.uploadId) {
      if (failAborts) {
        ctx.status = 500;
        return;
      }
      const bucket = ctx.path.split('/')[1];
      rmSync(path.join(dir, bucket, '._S3rver_uploads', ctx.query.uploadId), { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    await next();
  });
  // s3rver 3.7.1 reads a range ending at byte 0 (`bytes=0-0`) as the whole object (`end || Infinity`);
  // S3 sends the first byte.
  const { store } = server;
  const getObject = store.getObject.bind(store);
  store.getObject = async (bucket, key, options) => {
    const object = await getObject(bucket, key, options);
    if (options?.end === 0 && object?.content) {
      object.content.destroy();
      object.content = createReadStream(store.getResourcePath(bucket, key, 'object'), { start: 0, end: 0 });
      object.range = { start: 0, end: 0 };
    }
    return object;
  };
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  const client = rawClient();
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  client.destroy();
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  requests = [];
  failAborts = false;
});

function rawClient(): S3Client {
  return new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: CREDENTIALS });
}

function backend(options: Partial<S3BackendOptions> = {}): S3Backend {
  return new S3Backend({ bucket: BUCKET, endpoint, region: 'us-east-1', forcePathStyle: true, credentials: CREDENTIALS, ...options });
}

/** Multipart uploads s3rver still holds (started and neither completed nor aborted). */
async function unfinishedUploads(): Promise<string[]> {
  return readdir(path.join(dir, BUCKET, '._S3rver_uploads')).catch(() => []);
}

const putOptions = (maxBytes = 100 * MB) => ({ contentType: 'image/png', cacheControl: 'max-age=60', maxBytes });
const newKey = () => objectStorageKey('default', 'avatars', randomUUID(), randomUUID());
const called = (method: string, query: string[]) => requests.filter((r) => r.method === method && r.query.join() === query.join());

describe('S3Backend', () => {
  objectBackendSuite({ open: async () => backend(), leftovers: unfinishedUploads });

  describe('against s3rver', () => {
    let s3: S3Backend;
    beforeEach(() => {
      s3 = backend();
    });
    afterEach(async () => {
      await s3.close();
    });

    it('puts a small body with one PutObject and a 12 MB body as a multipart upload', async () => {
      await s3.put(newKey(), bodyOf(Buffer.from('small')), putOptions());
      expect(requests.map((r) => `${r.method} ${r.query.join('&')}`)).toEqual(['PUT ']);
      requests = [];
      await s3.put(newKey(), bodyOf(randomBytes(12 * MB)), putOptions());
      expect(called('POST', ['uploads'])).toHaveLength(1);
      expect(called('PUT', ['partNumber', 'uploadId'])).toHaveLength(3); // 5 + 5 + 2 MB
      expect(called('POST', ['uploadId'])).toHaveLength(1);
    });

    it('stores the content type and cache control', async () => {
      const key = newKey();
      await s3.put(key, bodyOf(Buffer.from('png')), putOptions());
      const client = rawClient();
      const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
      client.destroy();
      expect({ type: head.ContentType, cache: head.CacheControl }).toEqual({ type: 'image/png', cache: 'max-age=60' });
    });

    it('aborts the multipart upload of a body that grows too large', async () => {
      const key = newKey();
      await expect(s3.put(key, bodyOf(randomBytes(12 * MB)), putOptions(11 * MB))).rejects.toBeInstanceOf(ObjectTooLargeError);
      expect(called('POST', ['uploads'])).toHaveLength(1);
      const [part] = called('PUT', ['partNumber', 'uploadId']);
      expect(called('DELETE', ['uploadId']).map((r) => r.uploadId)).toEqual([part.uploadId]);
      expect(await unfinishedUploads()).toEqual([]);
      expect(await s3.head(key)).toBeNull();
      expect(called('POST', ['uploadId'])).toEqual([]); // never completed
    });

    it('keeps the error that stopped an upload when the abort fails too', async () => {
      failAborts = true;
      const key = newKey();
      const error = await s3.put(key, bodyOf(randomBytes(12 * MB)), putOptions(11 * MB)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ObjectTooLargeError);
      expect((error as Error).cause).toBeInstanceOf(Error);
      // The SDK retries the failed abort (500) before giving up.
      expect(called('DELETE', ['uploadId']).length).toBeGreaterThanOrEqual(1);
      expect(await s3.head(key)).toBeNull();
      failAborts = false;
      const [leftover] = await unfinishedUploads();
      rmSync(path.join(dir, BUCKET, '._S3rver_uploads', leftover), { recursive: true });
    });

    it('deletes in batches of 1000 keys', async () => {
      const keys = Array.from({ length: 2500 }, newKey);
      for (const at of [0, 1000, 2499]) await s3.put(keys[at], bodyOf(Buffer.from('x')), putOptions());
      requests = [];
      await s3.delete(keys);
      expect(called('POST', ['delete'])).toHaveLength(3);
      for (const at of [0, 1000, 2499]) expect(await s3.head(keys[at])).toBeNull();
    });

    it('copies with CopyObject, whose source header has each key segment URI-encoded', async () => {
      const from = objectStorageKey('default', 'my bucket', randomUUID(), 'ü');
      await s3.put(from, bodyOf(Buffer.from('copied')), putOptions());
      const to = newKey();
      await s3.copy(from, to);
      const copies = requests.filter((r) => r.copySource !== undefined);
      expect(copies.map((r) => r.copySource)).toEqual([`${BUCKET}/${from.split('/').map(encodeURIComponent).join('/')}`]);
      expect((await readAll((await s3.get(to)).body)).toString()).toBe('copied');
    });

    it('copies through the service above the CopyObject limit, keeping content type and cache control', async () => {
      const small = backend({ copyObjectLimit: 1 * MB });
      const from = newKey();
      const bytes = randomBytes(6 * MB);
      const stored = await small.put(from, bodyOf(bytes), putOptions());
      const to = newKey();
      requests = [];
      expect((await small.copy(from, to)).size).toBe(6 * MB);
      expect(requests.filter((r) => r.copySource !== undefined)).toEqual([]);
      expect((await readAll((await small.get(to)).body)).equals(bytes)).toBe(true);
      expect((await small.head(to))?.size).toBe(stored.size);
      const client = rawClient();
      const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: to }));
      client.destroy();
      expect({ type: head.ContentType, cache: head.CacheControl }).toEqual({ type: 'image/png', cache: 'max-age=60' });
      await small.close();
    });

    it('keeps every key under its prefix', async () => {
      const prefixed = backend({ prefix: '/tenant-a/' });
      const key = newKey();
      await prefixed.put(key, bodyOf(Buffer.from('in a folder')), putOptions());
      expect(existsSync(path.join(dir, BUCKET, 'tenant-a', `${key}._S3rver_object`))).toBe(true);
      expect(await s3.head(key)).toBeNull();
      expect((await s3.head(`tenant-a/${key}`))?.size).toBe(11);
      const copy = newKey();
      await prefixed.copy(key, copy);
      expect((await readAll((await prefixed.get(copy)).body)).toString()).toBe('in a folder');
      await prefixed.delete([key, copy]);
      expect(await s3.head(`tenant-a/${key}`)).toBeNull();
      await prefixed.close();
    });

    it('reports a missing bucket as an error, not as missing bytes', async () => {
      const lost = backend({ bucket: 'no-such-bucket' });
      const error = await lost.get(newKey()).catch((e: unknown) => e);
      expect(error).not.toBeInstanceOf(BytesNotFoundError);
      expect((error as Error).name).toBe('NoSuchBucket');
      await lost.close();
    });
  });

  it('is configured from the environment by backendFromEnv', async () => {
    const fromEnv = backendFromEnv(
      {
        DASH_STORAGE_BACKEND: 's3',
        DASH_STORAGE_S3_BUCKET: BUCKET,
        DASH_STORAGE_S3_ENDPOINT: endpoint,
        DASH_STORAGE_S3_FORCE_PATH_STYLE: 'true',
        DASH_STORAGE_S3_PREFIX: 'from-env',
        AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      },
      '/nowhere',
    );
    expect(fromEnv).toBeInstanceOf(S3Backend);
    const key = newKey();
    await fromEnv.put(key, bodyOf(Buffer.from('configured')), putOptions());
    expect(existsSync(path.join(dir, BUCKET, 'from-env', `${key}._S3rver_object`))).toBe(true);
    expect((await readAll((await fromEnv.get(key)).body)).toString()).toBe('configured');
    await fromEnv.close();
  });
});
