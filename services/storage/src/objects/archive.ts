import type { Readable } from 'node:stream';
import { EMPTY_FOLDER_PLACEHOLDER, STORAGE_WALK_PAGE_SIZE, StorageApiMessages } from '@dash/contracts';
import { badRequest } from '@dash/service-kit';
import { noSuchKey } from '../api-errors';
import { objectsForZipQuery } from '../sql/objects';
import { zipObjects, type ZipEntry } from '../zip';
import { asCaller, bytesKeyOf, checkObjectName, findBucket, missingBytesAsNotFound, SERVICE_ROLE, type ObjectRecord } from './common';
import { folderPrefix } from './list';
import type { StorageContext } from '../app';

/**
 * A zip of files and folders (paths ending with `/` take every object under them), as the service
 * role, streamed: the objects are read a page at a time and each file opened only when its turn comes.
 * Entries are named relative to `root` (every path must be inside it). Folder placeholders and rows
 * without bytes are left out; nothing to zip at all is a 404, answered before the archive starts.
 */
export async function zipStream(ctx: StorageContext, ref: string, bucketId: string, paths: readonly string[], root: string): Promise<Readable> {
  const prefix = folderPrefix(root);
  for (const path of paths) {
    checkObjectName(path.endsWith('/') ? path.slice(0, -1) : path);
    if (!path.startsWith(prefix)) throw badRequest(StorageApiMessages.zipOutsideRoot(path, prefix));
  }
  await findBucket(ctx, ref, bucketId);
  const names = paths.filter((path) => !path.endsWith('/'));
  const folders = paths.filter((path) => path.endsWith('/'));
  const page = (after: string | null) =>
    asCaller(ctx, ref, SERVICE_ROLE, async (client) => {
      const query = objectsForZipQuery(bucketId, names, folders, after, STORAGE_WALK_PAGE_SIZE);
      return (await client.query<ObjectRecord>(query.text, query.values)).rows;
    });
  const isFile = (row: ObjectRecord) => row.metadata !== null && row.version !== null && row.name.split('/').pop() !== EMPTY_FOLDER_PLACEHOLDER;

  const first = await page(null);
  if (!first.some(isFile)) throw noSuchKey();

  async function* entries(): AsyncIterable<ZipEntry> {
    let rows = first;
    while (rows.length > 0) {
      for (const row of rows.filter(isFile)) {
        const key = bytesKeyOf(ref, row)!;
        yield {
          name: row.name.slice(prefix.length),
          size: row.metadata!.size,
          mtime: row.updated_at,
          open: async () => (await ctx.backend.get(key).catch(missingBytesAsNotFound)).body,
        };
      }
      if (rows.length < STORAGE_WALK_PAGE_SIZE) return;
      rows = await page(rows[rows.length - 1]!.name);
    }
  }
  return zipObjects(entries());
}
