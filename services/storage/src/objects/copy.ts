import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ApiCopyBody } from '@dash/contracts';
import type { DatabaseCaller } from '@dash/service-kit';
import { entityTooLarge, noSuchKey } from '../api-errors';
import { objectStorageKey } from '../backend/types';
import type { ObjectRow } from '../sql/objects';
import { bytesKeyOf, checkObjectName, findBucket, findObject, missingBytesAsNotFound, ownerOf, tryAsCaller } from './common';
import { cacheControlOf, checkMimeType, contentTypeOf, uploadLimit } from './rules';
import { commitObjectRow, writeObjectRow } from './upload';
import type { StorageContext } from '../app';

/**
 * Copies an object as the caller: SELECT on the source, INSERT on the copy (UPDATE too with `upsert`,
 * which replaces an object at the destination). The copy is a new object (id and version) with its own
 * bytes; the destination bucket's type and size rules apply. With `copyMetadata: false` the given
 * content type and cache control replace the source's, and the app's metadata is not copied.
 */
export async function copyObject(
  ctx: StorageContext,
  ref: string,
  caller: DatabaseCaller,
  body: ApiCopyBody,
  upsert: boolean,
  log: FastifyBaseLogger,
): Promise<{ id: string; key: string }> {
  const toBucketId = body.destinationBucket ?? body.bucketId;
  checkObjectName(body.sourceKey);
  checkObjectName(body.destinationKey);
  await findBucket(ctx, ref, body.bucketId);
  const target = await findBucket(ctx, ref, toBucketId);
  const source = await findObject(ctx, ref, caller, body.bucketId, body.sourceKey);
  const sourceKey = bytesKeyOf(ref, source);
  if (!source.metadata || !sourceKey) throw noSuchKey();

  const keep = body.copyMetadata !== false;
  const mimetype = keep || !body.metadata?.mimetype ? source.metadata.mimetype : contentTypeOf(body.metadata.mimetype);
  const cacheControl = keep || !body.metadata?.cacheControl ? source.metadata.cacheControl : cacheControlOf(body.metadata.cacheControl);
  checkMimeType(target, mimetype);
  if (source.metadata.size > uploadLimit((await ctx.settings(ref)).fileSizeLimit, target)) throw entityTooLarge();

  const row: ObjectRow = {
    id: randomUUID(),
    version: randomUUID(),
    bucketId: toBucketId,
    name: body.destinationKey,
    owner: ownerOf(caller),
    metadata: {},
    userMetadata: keep ? source.user_metadata : null,
  };
  await tryAsCaller(ctx, ref, caller, (client) => writeObjectRow(client, row, upsert));
  const key = objectStorageKey(ref, toBucketId, row.id, row.version);
  const stored = await ctx.backend.copy(sourceKey, key).catch(missingBytesAsNotFound);
  const written: ObjectRow = {
    ...row,
    metadata: { ...source.metadata, eTag: stored.eTag, size: stored.size, contentLength: stored.size, mimetype, cacheControl, lastModified: new Date().toISOString() },
  };
  await commitObjectRow(ctx, ref, caller, written, key, upsert, log);
  return { id: row.id, key: `${toBucketId}/${body.destinationKey}` };
}
