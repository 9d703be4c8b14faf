import { LIST_V2_SORT_COLUMNS, SORT_COLUMNS, StorageApiMessages, type ApiListV2Body, type ApiListV2Reply, type ListSortBy, type StorageItem } from '@dash/contracts';
import { badRequest, type DatabaseCaller } from '@dash/service-kit';
import { folderPathError } from '../object-keys';
import { listDelimitedQuery, listFlatQuery, listFolderQuery, type ListV2Sort } from '../sql/objects';
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

/**
 * The cursor of a v2 listing, opaque to the client: the page's sort and its last entry (full path and,
 * sorted by a date, that date), so the next page continues in the same order even when the client
 * sends the cursor alone.
 */
interface V2Cursor extends ListV2Sort {
  key: string;
  date?: string;
}

const encodeCursor = ({ key, column, order, date }: V2Cursor) =>
  Buffer.from(JSON.stringify(date === undefined ? [key, column, order] : [key, column, order, date]), 'utf8').toString('base64url');

const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** A date as the cursor holds it, and one Postgres takes (year 1 or later). */
const isCursorDate = (date: unknown): date is string =>
  typeof date === 'string' && ISO_MILLIS.test(date) && !Number.isNaN(Date.parse(date)) && new Date(date).toISOString() === date && !date.startsWith('0000');

function decodeCursor(cursor: string | undefined): V2Cursor | null {
  if (cursor === undefined || cursor === '') return null;
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(StorageApiMessages.invalidCursor);
  }
  if (!Array.isArray(parts)) throw badRequest(StorageApiMessages.invalidCursor);
  const [key, column, order, date] = parts as unknown[];
  const sorted = (LIST_V2_SORT_COLUMNS as readonly unknown[]).includes(column) && (order === 'asc' || order === 'desc');
  const dated = column === 'name' ? parts.length === 3 : parts.length === 4 && isCursorDate(date);
  if (typeof key !== 'string' || !sorted || !dated) throw badRequest(StorageApiMessages.invalidCursor);
  return { key, column: column as ListV2Sort['column'], order: order as ListV2Sort['order'], ...(column === 'name' ? {} : { date: date as string }) };
}

/** listV2's sort as storage-js sends it: a column of LIST_V2_SORT_COLUMNS (400 otherwise), `desc` or else ascending. */
function v2SortOf(sortBy: ApiListV2Body['sortBy']): ListV2Sort {
  const column = sortBy?.column ?? 'name';
  if (!(LIST_V2_SORT_COLUMNS as readonly string[]).includes(column)) throw badRequest(StorageApiMessages.listV2BadSortColumn(column));
  return { column: column as ListV2Sort['column'], order: sortBy?.order?.toLowerCase() === 'desc' ? 'desc' : 'asc' };
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
  /** The date the entry sorts by (milliseconds); null when sorted by name. */
  sort_date: Date | null;
}

/**
 * storage-js's `listV2`: objects whose path starts with `prefix` (a plain prefix), a page at a time with
 * a cursor; with `with_delimiter`, the folders and files right under it instead. Sorted by full path,
 * or by a date and then full path, either way (see `ApiListV2Body`): a keyset on a unique key, so the
 * cursor stays exact while objects come and go. A cursor's sort wins over `sortBy`, which is still checked.
 */
export async function listObjectsV2(ctx: StorageContext, ref: string, caller: DatabaseCaller, bucketId: string, body: ApiListV2Body): Promise<ApiListV2Reply> {
  const asked = v2SortOf(body.sortBy);
  const after = decodeCursor(body.cursor);
  const sort: ListV2Sort = after ? { column: after.column, order: after.order } : asked;
  const prefix = body.prefix ?? '';
  const limit = body.limit ?? DEFAULT_LIST_V2_LIMIT;
  await findBucket(ctx, ref, bucketId);
  const page = { sort, after, limit };
  const query = body.with_delimiter ? listDelimitedQuery(bucketId, prefix, page) : listFlatQuery(bucketId, prefix, page);
  const rows = await asCaller(ctx, ref, caller, async (client) => (await client.query<V2Row>(query.text, query.values)).rows);
  const entries = rows.slice(0, limit);
  const reply: ApiListV2Reply = { hasNext: rows.length > limit, folders: [], objects: [] };
  for (const row of entries) {
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
  if (reply.hasNext) {
    const last = entries[entries.length - 1]!;
    reply.nextCursor = encodeCursor({ key: last.key, ...sort, ...(last.sort_date === null ? {} : { date: isoDate(last.sort_date) }) });
  }
  return reply;
}
