import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pg from 'pg';
import { Messages, policyBucket, StorageApiMessages, storageRoutes, type ApiListBucketsQuery, type Bucket } from '@dash/contracts';
import {
  addRoute,
  badRequest,
  isDataException,
  projectDbError,
  projectTransaction,
  SqlState,
  type DatabaseCaller,
  type SqlQuery,
} from '@dash/service-kit';
import { alreadyExists, noSuchBucket, StorageError, writeRefused } from '../api-errors';
import { bucketChangesFrom, newBucketFrom } from '../bucket-rules';
import { objectStorageKey } from '../backend/types';
import {
  bucketHasObjectsQuery,
  createBucketQuery,
  deleteBucketObjectsQuery,
  deleteBucketQuery,
  dropObjectPolicyQuery,
  getBucketQuery,
  listBucketsQuery,
  objectPoliciesQuery,
  updateBucketQuery,
  type BucketChanges,
  type NewBucket,
} from '../sql/buckets';
import type { StorageContext } from '../app';
import { recordBucketChange } from '../audit';

/*
 * Bucket operations, shared by the dashboard's routes (run as the database owner, `caller` null, after
 * the member's permission check) and the storage API's (run as the role of the app's key, so row-level
 * security on `storage.buckets` and `storage.objects` applies).
 */

export const BUCKET_NOT_EMPTY = 'The bucket is not empty: empty it first, then delete it';
const bucketNotEmpty = () => new StorageError(409, BUCKET_NOT_EMPTY, { code: 'ResourceNotEmpty', message: StorageApiMessages.bucketNotEmpty });
/** Bytes of emptied objects are deleted this many keys per backend call (S3 takes at most 1000 at once). */
const BYTES_DELETE_BATCH = 1000;

interface BucketRow extends Omit<Bucket, 'created_at' | 'updated_at'> {
  created_at: Date;
  updated_at: Date;
}

const toBucket = (row: BucketRow): Bucket => ({
  id: row.id,
  name: row.name,
  owner: row.owner,
  public: row.public,
  file_size_limit: row.file_size_limit === null ? null : Number(row.file_size_limit),
  allowed_mime_types: row.allowed_mime_types,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** Postgres's refusals as the client's mistakes: a taken name, a row-level security refusal, a bad value. */
function bucketError(error: unknown, bucketId: string): unknown {
  if (error instanceof pg.DatabaseError) {
    if (error.code === SqlState.UniqueViolation) return alreadyExists(`The resource already exists: bucket "${bucketId}"`);
    // An object still references the bucket (one the caller cannot see, or one uploaded meanwhile).
    if (error.code === SqlState.ForeignKeyViolation) return bucketNotEmpty();
    if (error.code === SqlState.InsufficientPrivilege) return writeRefused(error.message);
    if (error.code === SqlState.CheckViolation || isDataException(error)) return badRequest(error.message, error.code);
  }
  return projectDbError(error);
}

type RunQuery = (query: SqlQuery) => Promise<pg.QueryResult>;

/** Runs `work` in one transaction of the project database as `caller` (the owner when null), errors mapped. */
async function run<T>(ctx: StorageContext, ref: string, caller: DatabaseCaller | null, bucketId: string, work: (q: RunQuery) => Promise<T>): Promise<T> {
  try {
    return await projectTransaction(ctx.pools, ref, caller, (client) => work((query) => client.query(query.text, query.values)));
  } catch (error) {
    throw bucketError(error, bucketId);
  }
}

export async function listBuckets(ctx: StorageContext, ref: string, caller: DatabaseCaller | null, options?: ApiListBucketsQuery): Promise<Bucket[]> {
  const { rows } = await run(ctx, ref, caller, '', (q) => q(listBucketsQuery(options)));
  return rows.map(toBucket);
}

export async function getBucket(ctx: StorageContext, ref: string, caller: DatabaseCaller | null, id: string): Promise<Bucket> {
  const { rows } = await run(ctx, ref, caller, id, (q) => q(getBucketQuery(id)));
  if (!rows[0]) throw noSuchBucket();
  return toBucket(rows[0]);
}

export async function createBucket(ctx: StorageContext, ref: string, caller: DatabaseCaller | null, bucket: NewBucket): Promise<Bucket> {
  const { rows } = await run(ctx, ref, caller, bucket.name, (q) => q(createBucketQuery(bucket)));
  return toBucket(rows[0]);
}

export async function updateBucket(ctx: StorageContext, ref: string, caller: DatabaseCaller | null, id: string, changes: BucketChanges): Promise<Bucket> {
  const { rows } = await run(ctx, ref, caller, id, (q) => q(updateBucketQuery(id, changes)));
  if (!rows[0]) throw noSuchBucket();
  return toBucket(rows[0]);
}

/**
 * Deletes the bucket's object rows in one transaction, then their bytes. Bytes go only after the rows
 * are gone for good; if deleting them fails, the objects are already deleted for every reader, so the
 * failure is logged (the bytes are unreachable) rather than reported as a failed empty.
 */
export async function emptyBucket(ctx: StorageContext, ref: string, caller: DatabaseCaller | null, id: string, log: FastifyBaseLogger): Promise<number> {
  const deleted = await run(ctx, ref, caller, id, async (q) => {
    const { rows } = await q(getBucketQuery(id));
    if (!rows[0]) throw noSuchBucket();
    return (await q(deleteBucketObjectsQuery(id))).rows as Array<{ id: string; version: string | null }>;
  });
  try {
    for (let start = 0; start < deleted.length; start += BYTES_DELETE_BATCH) {
      const keys: string[] = [];
      for (const object of deleted.slice(start, start + BYTES_DELETE_BATCH)) {
        // An object without a version never received bytes.
        if (object.version !== null) keys.push(objectStorageKey(ref, id, object.id, object.version));
      }
      if (keys.length > 0) await ctx.backend.delete(keys);
      await ctx.renders?.forget(keys);
    }
  } catch (error) {
    log.error({ err: error, ref, bucket: id }, 'the bytes of an emptied bucket could not all be deleted');
  }
  return deleted.length;
}

/**
 * Deletes an empty bucket. With `dropPolicies` (the dashboard), the policies on `storage.objects`
 * grouped under it go in the same transaction: their names, sorted.
 */
export async function deleteBucket(
  ctx: StorageContext,
  ref: string,
  caller: DatabaseCaller | null,
  id: string,
  { dropPolicies }: { dropPolicies: boolean },
): Promise<string[]> {
  return run(ctx, ref, caller, id, async (q) => {
    const { rows } = await q(bucketHasObjectsQuery(id));
    if (rows[0].has_objects) throw bucketNotEmpty();
    if ((await q(deleteBucketQuery(id))).rowCount === 0) throw noSuchBucket();
    if (!dropPolicies) return [];
    const policies = (await q(objectPoliciesQuery())).rows as Array<{ name: string; qual: string | null; with_check: string | null }>;
    const grouped = policies.filter((p) => policyBucket(p.qual) === id || policyBucket(p.with_check) === id).map((p) => p.name);
    for (const name of grouped) await q(dropObjectPolicyQuery(name));
    return grouped;
  });
}

/** The dashboard's bucket routes: the member's permission is checked by the route's access rule. */
export async function bucketRoutes(app: FastifyInstance, { ctx }: { ctx: StorageContext }): Promise<void> {
  addRoute(app, storageRoutes.listBuckets, async ({ params }) => listBuckets(ctx, params.ref, null));

  addRoute(app, storageRoutes.createBucket, async ({ params, body, request }) => {
    const bucket = await createBucket(ctx, params.ref, null, newBucketFrom(body));
    recordBucketChange(ctx, request, { action: 'bucket.created', ref: params.ref, bucketId: bucket.id, details: bucketSettings(bucket) });
    return bucket;
  });

  addRoute(app, storageRoutes.updateBucket, async ({ params, body, request }) => {
    const bucket = await updateBucket(ctx, params.ref, null, params.id, bucketChangesFrom(params.id, body));
    recordBucketChange(ctx, request, { action: 'bucket.updated', ref: params.ref, bucketId: bucket.id, details: bucketSettings(bucket) });
    return bucket;
  });

  addRoute(app, storageRoutes.emptyBucket, async ({ params, request }) => {
    const count = await emptyBucket(ctx, params.ref, null, params.id, request.log);
    recordBucketChange(ctx, request, { action: 'bucket.emptied', ref: params.ref, bucketId: params.id, details: { objects_deleted: count } });
    return { message: `Successfully emptied bucket ${params.id} (${count} ${count === 1 ? 'object' : 'objects'} deleted)` };
  });

  addRoute(app, storageRoutes.deleteBucket, async ({ params, request }) => {
    const deletedPolicies = await deleteBucket(ctx, params.ref, null, params.id, { dropPolicies: true });
    recordBucketChange(ctx, request, { action: 'bucket.deleted', ref: params.ref, bucketId: params.id, details: { deleted_policies: deletedPolicies } });
    return { message: Messages.bucketDeleted(params.id), deletedPolicies };
  });
}

/** What the audit log keeps of a created or changed bucket: its settings after the change. */
export const bucketSettings = (bucket: Bucket) => ({
  public: bucket.public,
  file_size_limit: bucket.file_size_limit,
  allowed_mime_types: bucket.allowed_mime_types,
});
