import { SORT_COLUMNS, StorageApiMessages, type ApiListV2Body, type ApiListV2Reply, type ListSortBy, type StorageItem } from '@dash/contracts';
import { badRequest, type DatabaseCaller } from '@dash/service-kit';
import { folderPathError } from '../object-keys';
import { listDelimitedQuery, listFlatQuery, listFolderQuery } from '../sql/objects';
import { asCaller, findBucket, isoDate, reportedMetadata } from './common';
import type { StorageContext } from '../app';

/** storage-js's default page of a listing. */
export const DEFAULT_LIST_LIMIT = 100;
export const DEFAULT_LIST_V2_LIMIT = 1000;
/** The longest page of the storage API's `list`: Supabase Storage gives this many when asked for more. */
export const API_LIST_MAX_LIMIT = 1500;

export interface ListRequest {
  limit?: number;
  offset?: number;
  search?: string;
  sortBy?: { column?: string; order?: string };
}

/** How a listing is laid out: the dashboard's explorer, or the storage API's (see `FolderListOptions.order`). */
export type ListStyle = 'explorer' | 'api';

/** A sort as storage-js sends it (any text), checked against the contract's columns; 400 otherwise. */
export function sortOf(sortBy: ListRequest['sortBy']): ListSortBy {
  const column = sortBy?.column ?? 'name';
  if (!(SORT_COLUMNS as readonly string[]).includes(column)) throw badRequest(StorageApiMessages.badSortColumn(column));
  return { column: column as ListSortBy['column'], order: sortBy?.order?.toLowerCase() === 'desc' ? 'desc' : 'asc' };
}

/** A folder path as the listing's prefix: '' for the root, else the path with one trailing slash. */
export function folderPrefix(path: string): string {
  const problem = folderPathError(path);
  if (problem) throw badRequest(problem);
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed === '' ? '' : `${trimmed}/`;
}

interface ItemRow {
  name: string;
  id: string | null;
  created_at: Date | null;
  updated_at: Date | null;
  last_accessed_at: Date | null;
  /** As stored: see `reportedMetadata`. */
  metadata: unknown;
}

const dateOrNull = (date: Date | null) => (date === null ? null : isoDate(date));

/**
 * The folders and files right under `path` that the caller may see (see `listFolderQuery` for the
 * order). The storage API's pages hold at most `API_LIST_MAX_LIMIT` entries, whatever is asked.
 */
export async function listFolder(
  ctx: StorageContext,
  ref: string,
  caller: DatabaseCaller,
  bucketId: string,
  path: string,
  options: ListRequest,
  style: ListStyle = 'explorer',
): Promise<StorageItem[]> {
  const folder = folderPrefix(path);
  const sortBy = sortOf(options.sortBy);
  await findBucket(ctx, ref, bucketId);
  const limit = options.limit ?? DEFAULT_LIST_LIMIT;
  const query = listFolderQuery(bucketId, folder, {
    limit: style === 'api' ? Math.min(limit, API_LIST_MAX_LIMIT) : limit,
    offset: options.offset ?? 0,
    search: options.search ?? '',
    sortBy,
    order: style,
  });
  const rows = await asCaller(ctx, ref, caller, async (client) => (await client.query<ItemRow>(query.text, query.values)).rows);
  return rows.map((row) => ({
    name: row.name,
    id: row.id,
    created_at: dateOrNull(row.created_at),
    updated_at: dateOrNull(row.updated_at),
    last_accessed_at: dateOrNull(row.last_accessed_at),
    metadata: reportedMetadata(row.metadata, row.updated_at),
  }));
}

/** The cursor of a v2 listing: the last full path of the page, opaque to the client. */
const encodeCursor = (key: string) => Buffer.from(key, 'utf8').toString('base64url');
function decodeCursor(cursor: string | undefined): string | null {
  if (cursor === undefined || cursor === '') return null;
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  if (encodeCursor(key) !== cursor) throw badRequest(StorageApiMessages.invalidCursor);
  return key;
}

interface V2Row {
  key: string;
  is_folder: boolean;
  id: string | null;
  version: string | null;
  created_at: Date | null;
  updated_at: Date | null;
  last_accessed_at: Date | null;
  metadata: unknown;
}

/**
 * storage-js's `listV2`: objects whose path starts with `prefix` (a plain prefix), by full path, a page
 * at a time with a cursor; with `with_delimiter`, the folders and files right under it instead. Sorted
 * by name only (ascending), which keeps the cursor exact while objects come and go.
 */
export async function listObjectsV2(ctx: StorageContext, ref: string, caller: DatabaseCaller, bucketId: string, body: ApiListV2Body): Promise<ApiListV2Reply> {
  const sort = body.sortBy;
  if (sort && ((sort.column ?? 'name') !== 'name' || (sort.order ?? 'asc').toLowerCase() !== 'asc')) {
    throw badRequest(StorageApiMessages.listV2SortedByName);
  }
  const prefix = body.prefix ?? '';
  const limit = body.limit ?? DEFAULT_LIST_V2_LIMIT;
  const after = decodeCursor(body.cursor);
  await findBucket(ctx, ref, bucketId);
  const query = body.with_delimiter ? listDelimitedQuery(bucketId, prefix, after, limit) : listFlatQuery(bucketId, prefix, after, limit);
  const rows = await asCaller(ctx, ref, caller, async (client) => (await client.query<V2Row>(query.text, query.values)).rows);
  const page = rows.slice(0, limit);
  const reply: ApiListV2Reply = { hasNext: rows.length > limit, folders: [], objects: [] };
  for (const row of page) {
    if (row.is_folder) {
      reply.folders.push({ name: row.key, key: row.key });
      continue;
    }
    reply.objects.push({
      name: row.key,
      key: row.key,
      id: row.id!,
      version: row.version ?? '',
      created_at: isoDate(row.created_at!),
      updated_at: isoDate(row.updated_at!),
      last_accessed_at: isoDate(row.last_accessed_at!),
      metadata: reportedMetadata(row.metadata, row.updated_at),
    });
  }
  if (reply.hasNext) reply.nextCursor = encodeCursor(page[page.length - 1]!.key);
  return reply;
}
