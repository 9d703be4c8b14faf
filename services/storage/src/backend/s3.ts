import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
  type HeadObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import { meterBody } from './metered-body';
import { BytesNotFoundError, type ByteRange, type ObjectBackend, type PutOptions, type StoredBytes } from './types';

export interface S3BackendOptions {
  bucket: string;
  region: string;
  /** An S3-compatible service (MinIO, R2, …); AWS itself when absent. */
  endpoint?: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (most S3-compatible services). */
  forcePathStyle?: boolean;
  /** Static keys; the SDK's default chain (environment, profile, instance role) when absent. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** A folder in the bucket that holds every key, so the bucket can be shared. */
  prefix?: string;
  /** Sources above this size are copied through the service, since CopyObject stops at 5 GiB. */
  copyObjectLimit?: number;
}

/** S3's smallest part (except the last) and its most parts per upload. */
const MIN_PART_BYTES = 5 * 1024 * 1024;
const MAX_PARTS = 10_000;
/**
 * Parts in flight per upload. lib-storage buffers whole parts, so an upload holds about (queue + 1) × part
 * size, whatever the body: 15 MiB while limits stay under 48 GiB (5 MiB parts).
 */
const QUEUE_SIZE = 2;
const DELETE_BATCH = 1000;
const COPY_OBJECT_LIMIT = 5 * 1024 ** 3;
/** S3's largest object: no limit needs bigger parts than this allows. */
const MAX_OBJECT_BYTES = 5 * 1024 ** 4;

/**
 * Bytes in an S3 bucket (or an S3-compatible service). Puts stream through `@aws-sdk/lib-storage`: one
 * PutObject for bodies below a part, a multipart upload otherwise, aborted on any failure so nothing
 * shows at the key.
 */
export class S3Backend implements ObjectBackend {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly copyObjectLimit: number;

  constructor(options: S3BackendOptions) {
    this.bucket = options.bucket;
    const folder = options.prefix?.replace(/^\/+|\/+$/g, '') ?? '';
    this.prefix = folder === '' ? '' : `${folder}/`;
    this.copyObjectLimit = options.copyObjectLimit ?? COPY_OBJECT_LIMIT;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
      // Many S3-compatible services reject the SDK's newer default checksum headers; send them only
      // where an operation requires one.
      ...(options.endpoint ? ({ requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } as const) : {}),
    });
  }

  put(key: string, body: Readable, options: PutOptions): Promise<StoredBytes> {
    return this.upload(key, body, options);
  }

  async get(key: string, range?: ByteRange): Promise<{ body: Readable; size: number }> {
    const output = await this.client
      .send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined }))
      .catch((error: unknown) => {
        throw isMissing(error) ? new BytesNotFoundError(key) : error;
      });
    const body = output.Body;
    if (!(body instanceof Readable)) throw new Error(`S3 returned no body for ${key}`);
    if (!range) return { body, size: output.ContentLength ?? 0 };
    // `bytes 10-19/4096`: the range sent and the whole size. Some S3-compatible services ignore or
    // misread ranges; better an error than the wrong bytes.
    const [, start, end, total] = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(output.ContentRange ?? '') ?? [];
    const size = Number(total);
    if (total === undefined || Number(start) !== range.start || Number(end) !== Math.min(range.end ?? Infinity, size - 1)) {
      body.destroy();
      throw new Error(`S3 answered "${output.ContentRange ?? 'no Content-Range'}" for bytes ${range.start}-${range.end ?? ''} of ${key}`);
    }
    return { body, size };
  }

  async head(key: string): Promise<StoredBytes | null> {
    const output = await this.headObject(key);
    return output && { size: output.ContentLength ?? 0, eTag: quoted(output.ETag) };
  }

  async copy(fromKey: string, toKey: string): Promise<StoredBytes> {
    const source = await this.headObject(fromKey);
    if (!source) throw new BytesNotFoundError(fromKey);
    const size = source.ContentLength ?? 0;
    if (size > this.copyObjectLimit) return this.copyThroughService(fromKey, toKey, source);
    const output = await this.client
      .send(new CopyObjectCommand({ Bucket: this.bucket, Key: this.objectKey(toKey), CopySource: this.copySource(fromKey) }))
      .catch((error: unknown) => {
        throw isMissing(error) ? new BytesNotFoundError(fromKey) : error;
      });
    return { size, eTag: quoted(output.CopyObjectResult?.ETag ?? source.ETag) };
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const output = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((key) => ({ Key: this.objectKey(key) })), Quiet: true } }),
      );
      const failures = (output.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failures.length > 0) {
        const first = failures[0];
        throw new Error(`S3 did not delete ${failures.length} of ${batch.length} keys; ${first.Key}: ${first.Code} ${first.Message ?? ''}`.trim());
      }
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  /** Streams `body` to `key`; `maxBytes` caps it and sets the part size, so any allowed size fits in 10,000 parts. */
  private async upload(key: string, body: Readable, options: { contentType?: string; cacheControl?: string; maxBytes: number }): Promise<StoredBytes> {
    const metered = meterBody(body, options.maxBytes);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.objectKey(key), Body: metered.stream, ContentType: options.contentType, CacheControl: options.cacheControl },
      partSize: Math.max(MIN_PART_BYTES, Math.ceil(Math.min(options.maxBytes, MAX_OBJECT_BYTES) / MAX_PARTS)),
      queueSize: QUEUE_SIZE,
      // lib-storage's own abort would replace the error that caused it when the abort fails too; abort here.
      leavePartsOnError: true,
    });
    try {
      const output = await upload.done();
      return { size: metered.bytes(), eTag: quoted(output.ETag) };
    } catch (error) {
      metered.release();
      if (upload.uploadId) await this.abortUpload(key, upload.uploadId, error);
      throw error;
    }
  }

  /** Drops the parts of a failed multipart upload; a failed abort is kept as the cause of the original error. */
  private async abortUpload(key: string, uploadId: string, error: unknown): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.objectKey(key), UploadId: uploadId }));
    } catch (abortError) {
      if (error instanceof Error && error.cause === undefined) error.cause = abortError;
    }
  }

  private async copyThroughService(fromKey: string, toKey: string, source: HeadObjectCommandOutput): Promise<StoredBytes> {
    const { body, size } = await this.get(fromKey);
    try {
      return await this.upload(toKey, body, { contentType: source.ContentType, cacheControl: source.CacheControl, maxBytes: size });
    } finally {
      body.destroy();
    }
  }

  private async headObject(key: string): Promise<HeadObjectCommandOutput | null> {
    try {
      return await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  private objectKey(key: string): string {
    return this.prefix + key;
  }

  /** `bucket/key` with each key segment URI-encoded, as CopyObject's `x-amz-copy-source` header wants. */
  private copySource(key: string): string {
    return `${this.bucket}/${this.objectKey(key).split('/').map(encodeURIComponent).join('/')}`;
  }
}

/** A missing key; a missing bucket is a configuration error and stays one. */
function isMissing(error: unknown): boolean {
  if (!(error instanceof S3ServiceException) || error.name === 'NoSuchBucket') return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
}

/** S3 quotes entity tags; some compatible services do not. */
function quoted(eTag: string | undefined): string {
  if (!eTag) return '""';
  return eTag.startsWith('"') ? eTag : `"${eTag}"`;
}
