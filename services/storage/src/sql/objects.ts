import { EMPTY_FOLDER_PLACEHOLDER, LIST_V2_SORT_COLUMNS, SORT_COLUMNS, type ListSortBy, type ListV2SortColumn } from '@dash/contracts';
import { escapeLike, quoteIdent, type SqlQuery } from '@dash/service-kit';

/*
 * Statements on `storage.objects`. Every value is a parameter; the only text spliced in comes from
 * closed lists (sort columns and orders). Name prefixes are matched with `like 'prefix%'` on the
 * `(bucket_id, name text_pattern_ops)` index, the user's prefix escaped so `%` and `_` match literally.
 * Names compare in the "C" collation (byte order), the order of that index.
 */

/** The columns an object reply needs; dates as `timestamptz`, ids as text. */
const OBJECT_COLUMNS = `id::text as id, bucket_id, name, owner::text as owner, version, metadata, user_metadata,
  created_at, updated_at, last_accessed_at`;

/** A LIKE pattern for every name that starts with `prefix`. */
export const startsWithPattern = (prefix: string): string => `${escapeLike(prefix)}%`;

export function findObjectQuery(bucketId: string, name: string): SqlQuery {
  return { text: `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`, values: [bucketId, name] };
}

/** Which of the names are objects the caller may see. */
export function visibleNamesQuery(bucketId: string, names: readonly string[]): SqlQuery {
  return { text: 'select name from storage.objects where bucket_id = $1 and name = any($2::text[])', values: [bucketId, names] };
}

/**
 * The object to replace, locked until the transaction ends. `for update` applies the UPDATE policies
 * as well as the SELECT ones, so a caller who may not replace the object does not find it.
 */
export function lockObjectQuery(bucketId: string, name: string): SqlQuery {
  return {
    text: 'select id::text as id, version from storage.objects where bucket_id = $1 and name = $2 for update',
    values: [bucketId, name],
  };
}

/** A new object row, or the new version of one: its bytes are at (bucket, id, version). */
export interface ObjectRow {
  id: string;
  version: string;
  bucketId: string;
  name: string;
  owner: string | null;
  metadata: Record<string, unknown>;
  userMetadata: Record<string, unknown> | null;
}

export function insertObjectQuery(row: ObjectRow): SqlQuery {
  return {
    text: `insert into storage.objects (id, bucket_id, name, owner, version, metadata, user_metadata)
values ($1, $2, $3, $4, $5, $6, $7)
returning id::text as id`,
    values: [row.id, row.bucketId, row.name, row.owner, row.version, row.metadata, row.userMetadata],
  };
}

/**
 * Replaces the object `previousId` by a new version: a new id and version (they name the new bytes),
 * owner and metadata; the name and creation date stay.
 */
export function replaceObjectQuery(previousId: string, row: ObjectRow): SqlQuery {
  return {
    text: `update storage.objects
set id = $2, version = $3, owner = $4, metadata = $5, user_metadata = $6, updated_at = now(), last_accessed_at = now()
where id = $1
returning id::text as id`,
    values: [previousId, row.id, row.version, row.owner, row.metadata, row.userMetadata],
  };
}

/**
 * Renames one object, into another bucket too. The caller needs UPDATE (and SELECT) on the row; no row
 * back when there is no such object for the caller.
 */
export function moveObjectQuery(bucketId: string, name: string, toBucketId: string, toName: string): SqlQuery {
  return {
    text: `update storage.objects set bucket_id = $3, name = $4, updated_at = now()
where bucket_id = $1 and name = $2
returning id::text as id, version`,
    values: [bucketId, name, toBucketId, toName],
  };
}

/** Moves every object under the folder `fromPrefix` (ending with `/`) to `toPrefix`, keeping the rest of their names. */
export function moveFolderQuery(bucketId: string, fromPrefix: string, toPrefix: string): SqlQuery {
  return {
    text: `update storage.objects set name = $3 || substr(name, char_length($2) + 1), updated_at = now()
where bucket_id = $1 and name like $4
returning id::text as id`,
    values: [bucketId, fromPrefix, toPrefix, startsWithPattern(fromPrefix)],
  };
}

/** Deletes the named objects (exact names) the caller may delete. */
export function deleteObjectsQuery(bucketId: string, names: readonly string[]): SqlQuery {
  return {
    text: `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${OBJECT_COLUMNS}`,
    values: [bucketId, names],
  };
}

/** Deletes files (exact names) and everything under folders (prefixes ending with `/`). */
export function deleteFilesAndFoldersQuery(bucketId: string, names: readonly string[], folders: readonly string[]): SqlQuery {
  return {
    text: `delete from storage.objects
where bucket_id = $1 and (name = any($2::text[]) or name like any($3::text[]))
returning id::text as id, name, version`,
    values: [bucketId, names, folders.map(startsWithPattern)],
  };
}

/** Which of the folders (prefixes ending with `/`) hold no object any more. */
export function emptyFoldersQuery(bucketId: string, folders: readonly string[]): SqlQuery {
  return {
    text: `select folder from unnest($2::text[], $3::text[]) as f(folder, pattern)
where not exists (select 1 from storage.objects where bucket_id = $1 and name like pattern)`,
    values: [bucketId, folders, folders.map(startsWithPattern)],
  };
}

/**
 * A page of the files, and of the objects under the folders (prefixes ending with `/`), by name after
 * `after`: what a zip holds, read a page at a time.
 */
export function objectsForZipQuery(bucketId: string, names: readonly string[], folders: readonly string[], after: string | null, limit: number): SqlQuery {
  const values: unknown[] = [bucketId, names, folders.map(startsWithPattern), limit];
  const cursor = after === null ? '' : `and name collate "C" > $${values.push(after)}`;
  return {
    text: `select ${OBJECT_COLUMNS} from storage.objects
where bucket_id = $1 and (name = any($2::text[]) or name like any($3::text[])) ${cursor}
order by name collate "C"
limit $4`,
    values,
  };
}

export interface FolderListOptions {
  limit: number;
  offset: number;
  /** Case-insensitive prefix of the names in the folder; '' for all. */
  search: string;
  sortBy: ListSortBy;
  /**
   * `explorer` (the default, the dashboard's): folders first, by name (in the order asked for when
   * sorting by name, else ascending), then files. `api`, as Supabase Storage lists for storage-js:
   * sorted by name, folders and files together by their lower-case names (a folder where its first
   * object sorts); sorted by a date, folders first by name in the order asked for, then files.
   */
  order?: 'explorer' | 'api';
}

/**
 * The folders and files right under `folder` ('' for the bucket's root, else ending with `/`), as a
 * file explorer shows them: folders are the distinct next segment of deeper names (no id, dates or
 * metadata); files sort in the order asked for, then by name (see `FolderListOptions.order` for where
 * folders go). The placeholder that keeps an empty folder is hidden, though it still makes its folder
 * appear in the parent. Rows the caller may not select are invisible, and so is a folder with nothing
 * visible in it.
 */
export function listFolderQuery(bucketId: string, folder: string, options: FolderListOptions): SqlQuery {
  // Both come from closed lists (checked by the caller), never from the request's text.
  const column = SORT_COLUMNS.includes(options.sortBy.column) ? options.sortBy.column : 'name';
  const direction = options.sortBy.order === 'desc' ? 'desc' : 'asc';
  const values: unknown[] = [bucketId, startsWithPattern(folder), folder];
  const search = options.search === '' ? '' : `and child ilike $${values.push(startsWithPattern(options.search))}`;
  const limit = `$${values.push(options.limit)}`;
  const offset = `$${values.push(options.offset)}`;
  let order: string;
  if (options.order === 'api' && column === 'name') {
    // A folder sorts as its objects' shared start (`name/`), so it lands where its first object would.
    order = `lower(name || case when kind = 0 then '/' else '' end) collate "C" ${direction}, name collate "C" ${direction}`;
  } else {
    const folderOrder = column === 'name' || options.order === 'api' ? direction : 'asc';
    const fileOrder = column === 'name' ? `name collate "C" ${direction}` : `${column} ${direction}, name collate "C" asc`;
    order = `kind, case when kind = 0 then name end collate "C" ${folderOrder}, ${fileOrder}`;
  }
  return {
    text: `with entries as (
  select split_part(rest, '/', 1) as child, strpos(rest, '/') > 0 as in_folder,
         id, created_at, updated_at, last_accessed_at, metadata
  from (select substr(name, char_length($3) + 1) as rest, id, created_at, updated_at, last_accessed_at, metadata
        from storage.objects where bucket_id = $1 and name like $2) under_folder
), items as (
  select distinct child as name, null::text as id, null::timestamptz as created_at, null::timestamptz as updated_at,
         null::timestamptz as last_accessed_at, null::jsonb as metadata, 0 as kind
  from entries where in_folder ${search}
  union all
  select child, id::text, created_at, updated_at, last_accessed_at, metadata, 1
  from entries where not in_folder and child <> '${EMPTY_FOLDER_PLACEHOLDER}' ${search}
)
select name, id, created_at, updated_at, last_accessed_at, metadata from items
order by ${order}
limit ${limit} offset ${offset}`,
    values,
  };
}

/** The columns of both kinds of v2 listing: a folder has only its key (its full path, ending with `/`). */
const V2_COLUMNS = 'key, is_folder, id, version, created_at, updated_at, last_accessed_at, metadata, sort_date';

export interface ListV2Sort {
  column: ListV2SortColumn;
  order: 'asc' | 'desc';
}

/** One page of a v2 listing: its sort, where it starts and its length. */
export interface ListV2Page {
  sort: ListV2Sort;
  /** The last entry of the page before: its key and, sorted by a date, that date (ISO, milliseconds). */
  after: { key: string; date?: string } | null;
  /** Entries asked for: one more row is read to tell whether another page follows. */
  limit: number;
}

/**
 * A file's sort date: the column cut to milliseconds, the precision of the dates in the reply and in
 * the cursor, so the order agrees with the dates the client sees and the cursor compares exactly.
 */
const fileSortDate = (sort: ListV2Sort) =>
  sort.column === 'name' ? 'null::timestamptz' : `date_trunc('milliseconds', ${quoteIdent(LIST_V2_SORT_COLUMNS.includes(sort.column) ? sort.column : 'created_at')})`;

/**
 * The keyset order of a v2 page over `items` (key, sort_date) and the condition that starts it after
 * the cursor: by key (C collation), or by sort date then key, both in the order asked for, so ties on
 * the date are broken by the unique key and no entry is skipped or repeated between pages.
 */
function v2Keyset(page: ListV2Page, values: unknown[]): { where: string; orderBy: string } {
  const [direction, op] = page.sort.order === 'desc' ? ['desc', '<'] : ['asc', '>'];
  const byDate = page.sort.column !== 'name';
  const orderBy = byDate ? `sort_date ${direction}, key collate "C" ${direction}` : `key collate "C" ${direction}`;
  if (!page.after) return { where: '', orderBy };
  const key = `$${values.push(page.after.key)}`;
  if (!byDate) return { where: `where key collate "C" ${op} ${key}`, orderBy };
  const date = `$${values.push(page.after.date ?? null)}::timestamptz`;
  return { where: `where sort_date ${op} ${date} or (sort_date = ${date} and key collate "C" ${op} ${key})`, orderBy };
}

/**
 * One page of a flat listing: every object whose name starts with `prefix` (a plain string prefix), in
 * the page's order after its cursor; one row more than `limit` tells whether another page follows.
 */
export function listFlatQuery(bucketId: string, prefix: string, page: ListV2Page): SqlQuery {
  const values: unknown[] = [bucketId, startsWithPattern(prefix), page.limit + 1];
  const { where, orderBy } = v2Keyset(page, values);
  return {
    text: `with items as (
  select name as key, false as is_folder, id::text as id, version, created_at, updated_at, last_accessed_at, metadata,
         ${fileSortDate(page.sort)} as sort_date
  from storage.objects
  where bucket_id = $1 and name like $2
)
select ${V2_COLUMNS} from items ${where}
order by ${orderBy}
limit $3`,
    values,
  };
}

/**
 * One page of a delimited listing under `prefix`: the folders (full path ending with `/`) and files
 * right under it, together in the page's order after its cursor; one row more than `limit` tells
 * whether another page follows. Sorted by a date, a folder sorts at the creation date of its oldest
 * object, whichever date column is asked for (as Supabase Storage does).
 */
export function listDelimitedQuery(bucketId: string, prefix: string, page: ListV2Page): SqlQuery {
  const values: unknown[] = [bucketId, startsWithPattern(prefix), prefix, page.limit + 1];
  const { where, orderBy } = v2Keyset(page, values);
  const folderDate = page.sort.column === 'name' ? 'null::timestamptz' : `date_trunc('milliseconds', min(created_at))`;
  return {
    text: `with entries as (
  select case when strpos(substr(name, char_length($3) + 1), '/') > 0
              then $3 || split_part(substr(name, char_length($3) + 1), '/', 1) || '/' end as folder,
         name, id, version, created_at, updated_at, last_accessed_at, metadata
  from storage.objects where bucket_id = $1 and name like $2
), items as (
  select folder as key, true as is_folder, null::text as id, null::text as version, null::timestamptz as created_at,
         null::timestamptz as updated_at, null::timestamptz as last_accessed_at, null::jsonb as metadata, ${folderDate} as sort_date
  from entries where folder is not null group by folder
  union all
  select name, false, id::text, version, created_at, updated_at, last_accessed_at, metadata, ${fileSortDate(page.sort)}
  from entries where folder is null
)
select ${V2_COLUMNS} from items ${where}
order by ${orderBy}
limit $4`,
    values,
  };
}
