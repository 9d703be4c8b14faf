import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { EMPTY_FOLDER_PLACEHOLDER } from '@dash/contracts';
import type { DatabaseCaller } from '@dash/service-kit';
import { objectStorageKey } from '../backend/types';
import { deleteFilesAndFoldersQuery, deleteObjectsQuery, emptyFoldersQuery, insertObjectQuery } from '../sql/objects';
import { asCaller, bytesKeyOf, checkObjectName, deleteBytes, findBucket, SERVICE_ROLE, type ObjectRecord } from './common';
import { objectMetadata } from './upload';
import type { StorageContext } from '../app';

/**
 * Deletes the named objects (exact names) the caller may delete, in one transaction; their bytes go
 * after the commit. Names the caller cannot delete, or that do not exist, are left out of the reply.
 */
export async function removeObjects(ctx: StorageContext, ref: string, caller: DatabaseCaller, bucketId: string, names: readonly string[], log: FastifyBaseLogger): Promise<ObjectRecord[]> {
  await findBucket(ctx, ref, bucketId);
  const rows = await asCaller(ctx, ref, caller, async (client) => {
    const query = deleteObjectsQuery(bucketId, names);
    return (await client.query<ObjectRecord>(query.text, query.values)).rows;
  });
  await deleteBytes(ctx, rows.map((row) => bytesKeyOf(ref, row)), log);
  return rows;
}

/** The folder holding a file or folder path ('' for the bucket's root). */
export function parentFolder(path: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  const slash = trimmed.lastIndexOf('/');
  return slash < 0 ? '' : trimmed.slice(0, slash + 1);
}

/**
 * The dashboard's delete, as the service role: files, and folders (paths ending with `/`) with all
 * they hold, in one transaction. A folder the delete leaves empty keeps existing: its placeholder file
 * is created in the same transaction (its empty bytes are written before, and dropped when unused).
 * Bytes of deleted objects go after the commit. Returns the deleted names.
 */
export async function removePaths(ctx: StorageContext, ref: string, bucketId: string, paths: readonly string[], log: FastifyBaseLogger): Promise<string[]> {
  for (const path of paths) checkObjectName(path.endsWith('/') ? path.slice(0, -1) : path);
  await findBucket(ctx, ref, bucketId);
  const folders = paths.filter((path) => path.endsWith('/'));
  const files = paths.filter((path) => !path.endsWith('/'));
  const parents = [...new Set(paths.map(parentFolder))].filter((folder) => folder !== '' && !folders.some((removed) => folder.startsWith(removed)));
  const placeholders = parents.map((folder) => {
    const id = randomUUID();
    const version = randomUUID();
    return { folder, id, version, key: objectStorageKey(ref, bucketId, id, version) };
  });
  const empty = { contentType: 'application/octet-stream', cacheControl: 'no-cache', maxBytes: 0 };
  const stored = await Promise.all(placeholders.map((p) => ctx.backend.put(p.key, Readable.from([]), empty)));

  let deleted: Array<{ id: string; name: string; version: string | null }>;
  let kept: Set<string>;
  try {
    ({ deleted, kept } = await asCaller(ctx, ref, SERVICE_ROLE, async (client) => {
      const remove = deleteFilesAndFoldersQuery(bucketId, files, folders);
      const rows = (await client.query<{ id: string; name: string; version: string | null }>(remove.text, remove.values)).rows;
      const keptFolders = new Set<string>();
      if (rows.length > 0 && parents.length > 0) {
        const check = emptyFoldersQuery(bucketId, parents);
        for (const { folder } of (await client.query<{ folder: string }>(check.text, check.values)).rows) keptFolders.add(folder);
      }
      for (const [index, placeholder] of placeholders.entries()) {
        if (!keptFolders.has(placeholder.folder)) continue;
        const insert = insertObjectQuery({
          id: placeholder.id,
          version: placeholder.version,
          bucketId,
          name: `${placeholder.folder}${EMPTY_FOLDER_PLACEHOLDER}`,
          owner: null,
          metadata: objectMetadata(stored[index]!, empty.contentType, empty.cacheControl),
          userMetadata: null,
        });
        await client.query(insert.text, insert.values);
      }
      return { deleted: rows, kept: keptFolders };
    }));
  } catch (error) {
    await deleteBytes(ctx, placeholders.map((p) => p.key), log);
    throw error;
  }
  const unused = placeholders.filter((p) => !kept.has(p.folder)).map((p) => p.key);
  await deleteBytes(ctx, [...deleted.map((row) => bytesKeyOf(ref, { bucket_id: bucketId, ...row })), ...unused], log);
  return deleted.map((row) => row.name);
}
