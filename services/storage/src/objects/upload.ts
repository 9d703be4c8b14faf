import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { StorageApiMessages, type ObjectMetadata } from '@dash/contracts';
import { badRequest, isUniqueViolation, type DatabaseCaller } from '@dash/service-kit';
import { accessDenied, entityTooLarge } from '../api-errors';
import { objectStorageKey, ObjectTooLargeError, type StoredBytes } from '../backend/types';
import { insertObjectQuery, lockObjectQuery, replaceObjectQuery, type ObjectRow } from '../sql/objects';
import { asCaller, bytesKeyOf, checkObjectName, deleteBytes, findBucket, ownerOf, tryAsCaller } from './common';
import { checkMimeType, uploadLimit } from './rules';
import type { StorageContext } from '../app';

/** A file arriving in a request: its bytes as a stream and what the request says about them. */
export interface IncomingFile {
  stream: Readable;
  contentType: string;
  cacheControl: string;
  /** The exact byte count when the request gives it (a raw body's Content-Length), else null. */
  contentLength: number | null;
  userMetadata: Record<string, unknown> | null;
  /** Whether the request ended before its whole body arrived (the client went away). */
  cutOff(): boolean;
  /**
   * Resolves once the request's whole body has arrived (true) or its connection has closed first
   * (false). A form's file ends before the form does: a client that goes away in between has not
   * finished its request, and its upload must not be kept.
   */
  arrived(): Promise<boolean>;
}

export interface UploadTarget {
  ref: string;
  caller: DatabaseCaller;
  bucketId: string;
  name: string;
  /** Replace an object of the same name (a new version); without it, a taken name is a 409. */
  upsert: boolean;
  /** The owner of the object; by default the caller's user id. */
  owner?: string | null;
}

/** The metadata the service keeps of a stored version (what listings and downloads read). */
export function objectMetadata(stored: StoredBytes, contentType: string, cacheControl: string): ObjectMetadata {
  return {
    eTag: stored.eTag,
    size: stored.size,
    mimetype: contentType,
    cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: stored.size,
    httpStatusCode: 200,
  };
}

/**
 * Writes an object's row as the caller inside their transaction: a plain insert (a taken name fails
 * with a unique violation), or with `upsert` the replacement of the existing row by the new version.
 * Returns the replaced version (its bytes are to be deleted after commit), or null.
 *
 * The upsert locks the existing row first, so two replacements of one object take turns and each
 * learns exactly which version it replaced. A name taken by a concurrent insert is found on the second
 * try; still not found then, it belongs to an object the caller may not replace (403).
 */
export async function writeObjectRow(client: pg.PoolClient, row: ObjectRow, upsert: boolean): Promise<{ id: string; version: string | null } | null> {
  const run = (query: { text: string; values: unknown[] }) => client.query(query.text, query.values);
  if (!upsert) {
    await run(insertObjectQuery(row));
    return null;
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const { rows } = await run(lockObjectQuery(row.bucketId, row.name));
    const previous = rows[0] as { id: string; version: string | null } | undefined;
    if (previous) {
      await run(replaceObjectQuery(previous.id, row));
      return previous;
    }
    await client.query('savepoint new_object');
    try {
      await run(insertObjectQuery(row));
      return null;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await client.query('rollback to savepoint new_object');
    }
  }
  throw accessDenied(StorageApiMessages.rowLevelSecurity);
}

/**
 * Writes the row of bytes already stored at `key`, as the caller. If the row is refused, the new bytes
 * go; once it is committed, the bytes of the version it replaced go.
 */
export async function commitObjectRow(ctx: StorageContext, ref: string, caller: DatabaseCaller, row: ObjectRow, key: string, upsert: boolean, log: FastifyBaseLogger): Promise<void> {
  let replaced: { id: string; version: string | null } | null;
  try {
    replaced = await asCaller(ctx, ref, caller, (client) => writeObjectRow(client, row, upsert));
  } catch (error) {
    await deleteBytes(ctx, [key], log);
    throw error;
  }
  if (replaced) await deleteBytes(ctx, [bytesKeyOf(ref, { bucket_id: row.bucketId, ...replaced })], log);
}

/**
 * Stores an upload: checks the name and the bucket, then the file's type (415) and announced size
 * (413), then asks Postgres whether the caller may write the row (a refusal stores no byte), streams
 * the bytes to a new key (at most the project's and the bucket's limit), and writes the row as the
 * caller. A body cut off half way, a refused row or a lost race (409) leaves no row and no bytes; a
 * replaced version's bytes go after the commit. `openFile` is called once the request's target is
 * known to be sound (a multipart body is only parsed then). The rest of a refused body is read by the
 * upload routes' scope (`registerUploadParsing`).
 */
export async function storeObject(
  ctx: StorageContext,
  target: UploadTarget,
  openFile: () => Promise<IncomingFile>,
  log: FastifyBaseLogger,
): Promise<{ id: string; key: string }> {
  const { ref, caller, bucketId, name, upsert } = target;
  checkObjectName(name);
  const bucket = await findBucket(ctx, ref, bucketId);
  const file = await openFile();
  checkMimeType(bucket, file.contentType);
  const maxBytes = uploadLimit((await ctx.settings(ref)).fileSizeLimit, bucket);
  if (file.contentLength !== null && file.contentLength > maxBytes) throw entityTooLarge();

  const row: ObjectRow = {
    id: randomUUID(),
    version: randomUUID(),
    bucketId,
    name,
    owner: target.owner === undefined ? ownerOf(caller) : target.owner,
    metadata: {},
    userMetadata: file.userMetadata,
  };
  await tryAsCaller(ctx, ref, caller, (client) => writeObjectRow(client, row, upsert));

  const key = objectStorageKey(ref, bucketId, row.id, row.version);
  let stored: StoredBytes;
  try {
    stored = await ctx.backend.put(key, file.stream, { contentType: file.contentType, cacheControl: file.cacheControl, maxBytes });
  } catch (error) {
    if (error instanceof ObjectTooLargeError) throw entityTooLarge();
    if (file.cutOff()) throw badRequest(StorageApiMessages.uploadCutOff);
    throw error;
  }
  if (!(await file.arrived())) {
    await deleteBytes(ctx, [key], log);
    throw badRequest(StorageApiMessages.uploadCutOff);
  }

  await commitObjectRow(ctx, ref, caller, { ...row, metadata: objectMetadata(stored, file.contentType, file.cacheControl) }, key, upsert, log);
  return { id: row.id, key: `${bucketId}/${name}` };
}
