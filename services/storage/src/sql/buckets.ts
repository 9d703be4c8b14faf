import type { ApiListBucketsQuery } from '@dash/contracts';
import { escapeLike, quoteIdent, type SqlQuery } from '@dash/service-kit';

const BUCKET_COLUMNS = 'id, name, owner::text as owner, public, file_size_limit, allowed_mime_types, created_at, updated_at';

/** Buckets by name; storage-js's options page, filter (a case-insensitive part of the name) and sort. */
export function listBucketsQuery(options: ApiListBucketsQuery = {}): SqlQuery {
  const values: unknown[] = [];
  const where = options.search ? `where name ilike '%' || $${values.push(escapeLike(options.search))} || '%'` : '';
  // The column and order come from closed lists (the contract's literals), never from the request's text.
  const column = options.sortColumn ?? 'name';
  const order = options.sortOrder === 'desc' ? 'desc' : 'asc';
  const limit = options.limit === undefined ? '' : ` limit $${values.push(options.limit)}`;
  const offset = options.offset === undefined ? '' : ` offset $${values.push(options.offset)}`;
  return {
    text: `select ${BUCKET_COLUMNS} from storage.buckets ${where} order by ${quoteIdent(column)} ${order}, id${limit}${offset}`,
    values,
  };
}


export function getBucketQuery(id: string): SqlQuery {
  return { text: `select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, values: [id] };
}

export interface NewBucket {
  name: string;
  public: boolean;
  fileSizeLimit: number | null;
  allowedMimeTypes: string[] | null;
}

/** A bucket's id is its name. */
export function createBucketQuery(bucket: NewBucket): SqlQuery {
  return {
    text: `insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ($1, $1, $2, $3, $4::text[])
returning ${BUCKET_COLUMNS}`,
    values: [bucket.name, bucket.public, bucket.fileSizeLimit, bucket.allowedMimeTypes],
  };
}

/** What an update changes; an absent field stays as it is. */
export type BucketChanges = Partial<Omit<NewBucket, 'name'>>;

/** Changes the given fields (and `updated_at`); no row back when the bucket does not exist (or is not the caller's to change). */
export function updateBucketQuery(id: string, changes: BucketChanges): SqlQuery {
  const values: unknown[] = [id];
  const sets = ['updated_at = now()'];
  if (changes.public !== undefined) sets.push(`public = $${values.push(changes.public)}`);
  if (changes.fileSizeLimit !== undefined) sets.push(`file_size_limit = $${values.push(changes.fileSizeLimit)}`);
  if (changes.allowedMimeTypes !== undefined) sets.push(`allowed_mime_types = $${values.push(changes.allowedMimeTypes)}::text[]`);
  return { text: `update storage.buckets set ${sets.join(', ')} where id = $1 returning ${BUCKET_COLUMNS}`, values };
}

/** Deletes the bucket's object rows (those the caller may delete); their ids and versions name their bytes. */
export function deleteBucketObjectsQuery(id: string): SqlQuery {
  return { text: 'delete from storage.objects where bucket_id = $1 returning id::text as id, version', values: [id] };
}

export function bucketHasObjectsQuery(id: string): SqlQuery {
  return { text: 'select exists (select 1 from storage.objects where bucket_id = $1) as has_objects', values: [id] };
}

export function deleteBucketQuery(id: string): SqlQuery {
  return { text: 'delete from storage.buckets where id = $1 returning id', values: [id] };
}

/** The policies on `storage.objects` with their expressions, to find those grouped under a bucket. */
export function objectPoliciesQuery(): SqlQuery {
  return {
    text: `select policyname as name, qual, with_check from pg_policies
where schemaname = 'storage' and tablename = 'objects' order by policyname`,
    values: [],
  };
}

export function dropObjectPolicyQuery(name: string): SqlQuery {
  return { text: `drop policy ${quoteIdent(name)} on storage.objects`, values: [] };
}
