import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { BytesNotFoundError, ObjectTooLargeError, objectStorageKey, type ObjectBackend, type PutOptions } from '../src/backend/types';

export interface BackendSuiteOptions {
  /** A fresh backend for each test (closed after it). */
  open: () => Promise<ObjectBackend>;
  /** Anything a failed put may have left behind (temporary files, unfinished uploads); must be empty. */
  leftovers: () => Promise<string[]>;
}

const MB = 1024 * 1024;
const BIG = 12 * MB; // several S3 parts: the S3 backend goes multipart
const options = (maxBytes = 100 * MB): PutOptions => ({ contentType: 'application/octet-stream', cacheControl: 'max-age=3600', maxBytes });

/** A body that arrives in chunks, like a request. */
export function bodyOf(bytes: Buffer, chunk = 64 * 1024): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
    })(),
  );
}

/** A body that sends `bytesBeforeFailure` bytes, then fails with `error` (or just closes when null). */
export function failingBody(bytesBeforeFailure: number, error: Error | null): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytesBeforeFailure) {
        this.destroy(error ?? undefined);
        return;
      }
      const size = Math.min(64 * 1024, bytesBeforeFailure - sent);
      sent += size;
      this.push(randomBytes(size));
    },
  });
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** The quoted MD5 of `bytes`, the entity tag of a single-part upload. */
export const md5Tag = (bytes: Buffer) => `"${createHash('md5').update(bytes).digest('hex')}"`;
const newKey = (bucket = 'avatars') => objectStorageKey('default', bucket, randomUUID(), randomUUID());

/** The behaviour every `ObjectBackend` must show; each backend's test file runs it. */
export function objectBackendSuite({ open, leftovers }: BackendSuiteOptions): void {
  let backend: ObjectBackend;
  beforeEach(async () => {
    backend = await open();
  });
  afterEach(async () => {
    await backend.close();
  });

  const expectNothingAt = async (key: string) => {
    expect(await backend.head(key)).toBeNull();
    await expect(backend.get(key)).rejects.toBeInstanceOf(BytesNotFoundError);
    expect(await leftovers()).toEqual([]);
  };

  describe('put and get', () => {
    it('round-trips binary data and reports its size and quoted MD5 entity tag', async () => {
      const key = newKey();
      const bytes = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
      const stored = await backend.put(key, bodyOf(bytes, 100), options());
      expect(stored).toEqual({ size: 512, eTag: md5Tag(bytes) });
      const { body, size } = await backend.get(key);
      expect(size).toBe(512);
      expect((await readAll(body)).equals(bytes)).toBe(true);
    });

    it(`round-trips a ${BIG / MB} MB body`, async () => {
      const key = newKey();
      const bytes = randomBytes(BIG);
      const stored = await backend.put(key, bodyOf(bytes), options());
      expect(stored.size).toBe(BIG);
      expect(stored.eTag).toMatch(/^"[^"]+"$/);
      const { body, size } = await backend.get(key);
      expect(size).toBe(BIG);
      expect(sha256(await readAll(body))).toBe(sha256(bytes));
      expect(await backend.head(key)).toEqual(stored);
    });

    it('stores an empty body', async () => {
      const key = newKey();
      expect(await backend.put(key, bodyOf(Buffer.alloc(0)), options())).toEqual({ size: 0, eTag: md5Tag(Buffer.alloc(0)) });
      const { body, size } = await backend.get(key);
      expect(size).toBe(0);
      expect((await readAll(body)).length).toBe(0);
    });

    it('replaces the bytes of an existing key', async () => {
      const key = newKey();
      await backend.put(key, bodyOf(Buffer.from('first version, longer')), options());
      const second = Buffer.from('second');
      expect(await backend.put(key, bodyOf(second), options())).toEqual({ size: 6, eTag: md5Tag(second) });
      expect(await backend.head(key)).toEqual({ size: 6, eTag: md5Tag(second) });
      expect((await readAll((await backend.get(key)).body)).toString()).toBe('second');
    });

    it('gives the same entity tag for the same bytes at the same key', async () => {
      const key = newKey();
      const bytes = Buffer.from('same bytes');
      const first = await backend.put(key, bodyOf(bytes), options());
      const second = await backend.put(key, bodyOf(bytes), options());
      expect(second.eTag).toBe(first.eTag);
      expect((await backend.head(key))?.eTag).toBe(first.eTag);
    });

    it('keeps keys with URI-encoded bucket names and unicode apart', async () => {
      const keys = [
        objectStorageKey('default', 'my bucket/ü%20', randomUUID(), randomUUID()),
        objectStorageKey('default', '写真 📷', randomUUID(), randomUUID()),
        `default/${encodeURIComponent("it's (a) *bucket*!")}/${randomUUID()}/日本語`,
      ];
      for (const [i, key] of keys.entries()) await backend.put(key, bodyOf(Buffer.from(`bytes ${i} é`)), options());
      for (const [i, key] of keys.entries()) {
        expect((await readAll((await backend.get(key)).body)).toString()).toBe(`bytes ${i} é`);
      }
      const copyKey = objectStorageKey('default', 'другой bucket', randomUUID(), randomUUID());
      await backend.copy(keys[0], copyKey);
      expect((await readAll((await backend.get(copyKey)).body)).toString()).toBe('bytes 0 é');
      await backend.delete([...keys, copyKey]);
      for (const key of [...keys, copyKey]) expect(await backend.head(key)).toBeNull();
    });
  });

  describe('byte ranges', () => {
    const bytes = Buffer.from('0123456789abcdefghij');
    let key: string;
    beforeEach(async () => {
      key = newKey();
      await backend.put(key, bodyOf(bytes), options());
    });

    it('reads an inclusive range and reports the whole size', async () => {
      const { body, size } = await backend.get(key, { start: 3, end: 7 });
      expect(size).toBe(20);
      expect((await readAll(body)).toString()).toBe('34567');
    });

    it('reads from a start to the end', async () => {
      expect((await readAll((await backend.get(key, { start: 15 })).body)).toString()).toBe('fghij');
    });

    it('reads a single byte and stops at the last byte when the end is past it', async () => {
      expect((await readAll((await backend.get(key, { start: 0, end: 0 })).body)).toString()).toBe('0');
      expect((await readAll((await backend.get(key, { start: 18, end: 1000 })).body)).toString()).toBe('ij');
    });

    it('reads a range deep inside a multi-megabyte body', async () => {
      const big = randomBytes(BIG);
      const bigKey = newKey();
      await backend.put(bigKey, bodyOf(big), options());
      const start = 7 * MB - 10;
      const { body, size } = await backend.get(bigKey, { start, end: start + 99 });
      expect(size).toBe(BIG);
      expect((await readAll(body)).equals(big.subarray(start, start + 100))).toBe(true);
    });
  });

  describe('head, copy and delete', () => {
    it('heads size and quoted entity tag, and null when nothing is there', async () => {
      const key = newKey();
      const bytes = Buffer.from('head me');
      await backend.put(key, bodyOf(bytes), options());
      expect(await backend.head(key)).toEqual({ size: 7, eTag: md5Tag(bytes) });
      expect(await backend.head(newKey())).toBeNull();
    });

    it('copies bytes to a new key and leaves the source', async () => {
      const from = newKey();
      const to = newKey('other-bucket');
      const bytes = randomBytes(300_000);
      const stored = await backend.put(from, bodyOf(bytes), options());
      expect(await backend.copy(from, to)).toEqual(stored);
      expect(await backend.head(to)).toEqual(stored);
      expect((await readAll((await backend.get(to)).body)).equals(bytes)).toBe(true);
      expect((await readAll((await backend.get(from)).body)).equals(bytes)).toBe(true);
      // The copy is independent: deleting the source keeps it.
      await backend.delete([from]);
      expect((await readAll((await backend.get(to)).body)).equals(bytes)).toBe(true);
    });

    it('rejects a copy of a missing key with BytesNotFoundError', async () => {
      const to = newKey();
      await expect(backend.copy(newKey(), to)).rejects.toBeInstanceOf(BytesNotFoundError);
      await expectNothingAt(to);
    });

    it('deletes present and missing keys alike', async () => {
      const present = [newKey(), newKey()];
      for (const key of present) await backend.put(key, bodyOf(Buffer.from(key)), options());
      const kept = newKey();
      await backend.put(kept, bodyOf(Buffer.from('kept')), options());
      await backend.delete([...present, newKey(), newKey()]);
      for (const key of present) await expectNothingAt(key);
      expect(await backend.head(kept)).toEqual({ size: 4, eTag: md5Tag(Buffer.from('kept')) });
      await backend.delete([]);
      await backend.delete([present[0]]);
    });

    it('rejects a get of a missing key with BytesNotFoundError', async () => {
      const key = newKey();
      await expect(backend.get(key)).rejects.toEqual(new BytesNotFoundError(key));
      await expect(backend.get(key, { start: 0, end: 10 })).rejects.toBeInstanceOf(BytesNotFoundError);
    });
  });

  describe('failed puts leave nothing', () => {
    it('rejects a small body over maxBytes with ObjectTooLargeError, without destroying the body', async () => {
      const key = newKey();
      const body = bodyOf(Buffer.alloc(200_000, 1), 1000);
      const error = await backend.put(key, body, options(1000)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ObjectTooLargeError);
      expect((error as ObjectTooLargeError).maxBytes).toBe(1000);
      await expectNothingAt(key);
      // The caller still owns the body: it can drain the rest to answer the request.
      expect(body.destroyed).toBe(false);
      expect((await readAll(body)).length).toBeGreaterThan(0);
    });

    it(`rejects a ${BIG / MB} MB body over a ${BIG / MB - 2} MB limit and leaves nothing`, async () => {
      const key = newKey();
      await expect(backend.put(key, bodyOf(randomBytes(BIG)), options(BIG - 2 * MB))).rejects.toEqual(new ObjectTooLargeError(BIG - 2 * MB));
      await expectNothingAt(key);
    });

    it('accepts a body of exactly maxBytes', async () => {
      const key = newKey();
      expect((await backend.put(key, bodyOf(Buffer.alloc(1000, 2)), options(1000))).size).toBe(1000);
    });

    it('rejects a body that errors half way with its error and leaves nothing', async () => {
      const key = newKey();
      await expect(backend.put(key, failingBody(100_000, new Error('client went away')), options())).rejects.toThrow('client went away');
      await expectNothingAt(key);
    });

    it('rejects a multi-megabyte body that errors half way and leaves nothing', async () => {
      const key = newKey();
      await expect(backend.put(key, failingBody(7 * MB, new Error('connection reset')), options())).rejects.toThrow('connection reset');
      await expectNothingAt(key);
    });

    it('rejects a body that closes before its end and leaves nothing', async () => {
      const key = newKey();
      await expect(backend.put(key, failingBody(6 * MB, null), options())).rejects.toThrow(/premature close/i);
      await expectNothingAt(key);
    });

    it('rejects a body that fails before its first byte and leaves nothing', async () => {
      const key = newKey();
      await expect(backend.put(key, failingBody(0, new Error('aborted')), options())).rejects.toThrow('aborted');
      await expectNothingAt(key);
    });

    it('keeps the old bytes when a replacing put fails', async () => {
      const key = newKey();
      const old = await backend.put(key, bodyOf(Buffer.from('old bytes')), options());
      await expect(backend.put(key, failingBody(6 * MB, new Error('cut')), options())).rejects.toThrow('cut');
      await expect(backend.put(key, bodyOf(Buffer.alloc(50)), options(10))).rejects.toBeInstanceOf(ObjectTooLargeError);
      expect(await backend.head(key)).toEqual(old);
      expect((await readAll((await backend.get(key)).body)).toString()).toBe('old bytes');
      expect(await leftovers()).toEqual([]);
    });
  });
}
