import type { Readable } from 'node:stream';

/**
 * Where file bytes live. Object metadata (names, owners, sizes) lives in the project database's
 * `storage.objects`; a backend only keeps bytes under opaque keys that never change when an object is
 * renamed or moved (`objectStorageKey`). Implementations: local disk (`DiskBackend`, the default) and
 * S3 (`S3Backend`). Both must pass `test/backend-suite.ts`.
 */
export interface ObjectBackend {
  /**
   * Streams `body` to `key`. Nothing is visible at `key` until the whole body has arrived: a stream that
   * errors or ends early leaves nothing behind and rejects. More than `maxBytes` rejects with
   * `ObjectTooLargeError` (and leaves nothing). When the backend gives up (too large, storage failure) it
   * stops reading `body` but does not destroy it: the caller still owns the request and chooses to drain
   * it (so the client sees the answer) or drop the connection.
   */
  put(key: string, body: Readable, options: PutOptions): Promise<StoredBytes>;
  /**
   * The bytes at `key`, optionally a byte range, and the size of the whole object. Rejects with
   * `BytesNotFoundError`. A range must start inside the object (check against the size first: S3 refuses
   * unsatisfiable ranges); an `end` past the last byte means the last byte. The caller must read or
   * destroy `body` (it holds a file handle or a connection).
   */
  get(key: string, range?: ByteRange): Promise<{ body: Readable; size: number }>;
  /** Size and entity tag, or null when nothing is at `key`. */
  head(key: string): Promise<StoredBytes | null>;
  /** Copies bytes to a new key (the object copy of the storage API). Rejects with `BytesNotFoundError`. */
  copy(fromKey: string, toKey: string): Promise<StoredBytes>;
  /** Deletes keys; keys with nothing at them are not an error. */
  delete(keys: readonly string[]): Promise<void>;
  /** Releases clients and handles. */
  close(): Promise<void>;
}

export interface PutOptions {
  contentType: string;
  cacheControl: string;
  /** The most bytes accepted. */
  maxBytes: number;
}

export interface StoredBytes {
  size: number;
  /**
   * A quoted entity tag (`"…"`), unchanged as long as the stored bytes are: the MD5 of a body under S3's
   * part size, the same for the same bytes; larger bodies' tags are S3's multipart tags or the disk's
   * `EntityTagger` tags, which are not.
   */
  eTag: string;
}

export interface ByteRange {
  start: number;
  /** Inclusive, as in an HTTP Range header. */
  end?: number;
}

export class ObjectTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The object exceeded the maximum allowed size of ${maxBytes} bytes`);
    this.name = 'ObjectTooLargeError';
  }
}

export class BytesNotFoundError extends Error {
  constructor(readonly key: string) {
    super('Object not found');
    this.name = 'BytesNotFoundError';
  }
}

/**
 * The backend key of one version of an object: project, bucket, object id and version. It does not
 * contain the object's name, so moves and renames are one database update and never touch bytes.
 */
export function objectStorageKey(ref: string, bucketId: string, objectId: string, version: string): string {
  return `${ref}/${encodeURIComponent(bucketId)}/${objectId}/${version}`;
}
