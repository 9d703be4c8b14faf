import type { FastifyBaseLogger } from 'fastify';
import { StorageApiMessages, type MoveObjectsBody } from '@dash/contracts';
import { badRequest, conflict, notFound, type DatabaseCaller } from '@dash/service-kit';
import { entityTooLarge, noSuchKey } from '../api-errors';
import { objectStorageKey } from '../backend/types';
import { moveFolderQuery, moveObjectQuery } from '../sql/objects';
import { asCaller, bytesKeyOf, checkObjectName, deleteBytes, findBucket, findObject, missingBytesAsNotFound, SERVICE_ROLE } from './common';
import { checkMimeType, uploadLimit } from './rules';
import type { StorageContext } from '../app';

export interface MoveRequest {
  bucketId: string;
  from: string;
  toBucketId: string;
  to: string;
}

/**
 * Moves (renames) one object as the caller: one update of its row, so its bytes stay where they are.
 * Into another bucket, whose id is part of the bytes' key, the bytes are copied first and the old ones
 * deleted after the commit; the other bucket's type and size rules apply. The caller needs UPDATE (and
 * SELECT) on the row; an object they cannot see is a 404, a taken destination a 409.
 */
export async function moveObject(ctx: StorageContext, ref: string, caller: DatabaseCaller, move: MoveRequest, log: FastifyBaseLogger): Promise<void> {
  checkObjectName(move.from);
  checkObjectName(move.to);
  await findBucket(ctx, ref, move.bucketId);
  const sameBucket = move.toBucketId === move.bucketId;
  if (sameBucket && move.from === move.to) {
    await findObject(ctx, ref, caller, move.bucketId, move.from);
    return;
  }
  if (sameBucket) {
    const rows = await asCaller(ctx, ref, caller, async (client) => {
      const query = moveObjectQuery(move.bucketId, move.from, move.toBucketId, move.to);
      return (await client.query(query.text, query.values)).rows;
    });
    if (rows.length === 0) throw noSuchKey();
    return;
  }

  const target = await findBucket(ctx, ref, move.toBucketId);
  const source = await findObject(ctx, ref, caller, move.bucketId, move.from);
  const sourceKey = bytesKeyOf(ref, source);
  if (!source.metadata || !sourceKey || source.version === null) throw noSuchKey();
  checkMimeType(target, source.metadata.mimetype);
  if (source.metadata.size > uploadLimit((await ctx.settings(ref)).fileSizeLimit, target)) throw entityTooLarge();
  const targetKey = objectStorageKey(ref, move.toBucketId, source.id, source.version);
  await ctx.backend.copy(sourceKey, targetKey).catch(missingBytesAsNotFound);
  try {
    await asCaller(ctx, ref, caller, async (client) => {
      const query = moveObjectQuery(move.bucketId, move.from, move.toBucketId, move.to);
      const { rows } = await client.query<{ id: string; version: string }>(query.text, query.values);
      // The object was replaced or removed since it was read: its bytes are not the ones copied.
      if (rows[0]?.id !== source.id || rows[0]?.version !== source.version) throw conflict(StorageApiMessages.changedMeanwhile);
    });
  } catch (error) {
    await deleteBytes(ctx, [targetKey], log);
    throw error;
  }
  await deleteBytes(ctx, [sourceKey], log);
}

/** A folder path of a dashboard move: ends with `/`, and is sound once that slash is gone. */
function checkFolderPath(path: string): void {
  checkObjectName(path.slice(0, -1));
}

/**
 * The dashboard's moves, all in one transaction as the service role: a `from` ending with `/` is a
 * folder and takes every object under it (its `to` must be a folder too); a move to where the item
 * already is does nothing. Any taken name (409) or missing item (404) and nothing moves. The count of
 * objects moved comes back.
 */
export async function moveMany(ctx: StorageContext, ref: string, bucketId: string, moves: MoveObjectsBody['moves']): Promise<number> {
  for (const { from, to } of moves) {
    const folder = from.endsWith('/');
    if (folder !== to.endsWith('/')) throw badRequest(StorageApiMessages.moveKindMismatch(from, to));
    if (folder) {
      checkFolderPath(from);
      checkFolderPath(to);
      if (to !== from && to.startsWith(from)) throw badRequest(StorageApiMessages.moveIntoItself(from));
    } else {
      checkObjectName(from);
      checkObjectName(to);
    }
  }
  await findBucket(ctx, ref, bucketId);
  return asCaller(ctx, ref, SERVICE_ROLE, async (client) => {
    let moved = 0;
    for (const { from, to } of moves) {
      if (from === to) continue;
      const query = from.endsWith('/') ? moveFolderQuery(bucketId, from, to) : moveObjectQuery(bucketId, from, bucketId, to);
      const { rowCount } = await client.query(query.text, query.values);
      if (!rowCount) throw notFound(`${StorageApiMessages.objectNotFound}: ${from}`);
      moved += rowCount;
    }
    return moved;
  });
}
