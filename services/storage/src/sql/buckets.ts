import type { SqlQuery } from '@dash/service-kit';

const BUCKET_COLUMNS = 'id, name, owner::text as owner, public, file_size_limit, allowed_mime_types, created_at, updated_at';

export function listBucketsQuery(): SqlQuery {
  return { text: `select ${BUCKET_COLUMNS} from storage.buckets order by name, id`, values: [] };
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
