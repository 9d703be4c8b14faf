import type { FastifyInstance } from 'fastify';
import { storageApiBucketRoutes } from '@dash/contracts';
import { addRoute, projectKeyCallerOf } from '@dash/service-kit';
import { bucketChangesFrom, newApiBucketFrom } from '../bucket-rules';
import { bucketSettings, createBucket, deleteBucket, emptyBucket, getBucket, listBuckets, updateBucket } from './buckets';
import { recordBucketChange } from '../audit';
import type { StorageContext } from '../app';

/**
 * The storage API's bucket routes, as `@supabase/storage-js` calls them. Each runs as the database role
 * of the caller's key (row-level security on the storage tables decides; `service_role` bypasses it)
 * and replies in the shapes storage-js reads.
 */
export async function apiBucketRoutes(app: FastifyInstance, { ctx }: { ctx: StorageContext }): Promise<void> {
  addRoute(app, storageApiBucketRoutes.listBuckets, async ({ params, query, request }) =>
    listBuckets(ctx, params.ref, projectKeyCallerOf(request), query),
  );

  addRoute(app, storageApiBucketRoutes.getBucket, async ({ params, request }) => getBucket(ctx, params.ref, projectKeyCallerOf(request), params.id));

  addRoute(app, storageApiBucketRoutes.createBucket, async ({ params, body, request }) => {
    const bucket = await createBucket(ctx, params.ref, projectKeyCallerOf(request), newApiBucketFrom(body));
    recordBucketChange(ctx, request, { action: 'bucket.created', ref: params.ref, bucketId: bucket.id, details: bucketSettings(bucket) });
    return { name: bucket.name };
  });

  addRoute(app, storageApiBucketRoutes.updateBucket, async ({ params, body, request }) => {
    const bucket = await updateBucket(ctx, params.ref, projectKeyCallerOf(request), params.id, bucketChangesFrom(params.id, body));
    recordBucketChange(ctx, request, { action: 'bucket.updated', ref: params.ref, bucketId: bucket.id, details: bucketSettings(bucket) });
    return { message: 'Successfully updated' };
  });

  addRoute(app, storageApiBucketRoutes.emptyBucket, async ({ params, request }) => {
    const count = await emptyBucket(ctx, params.ref, projectKeyCallerOf(request), params.id, request.log);
    recordBucketChange(ctx, request, { action: 'bucket.emptied', ref: params.ref, bucketId: params.id, details: { objects_deleted: count } });
    return { message: 'Successfully emptied' };
  });

  addRoute(app, storageApiBucketRoutes.deleteBucket, async ({ params, request }) => {
    await deleteBucket(ctx, params.ref, projectKeyCallerOf(request), params.id, { dropPolicies: false });
    recordBucketChange(ctx, request, { action: 'bucket.deleted', ref: params.ref, bucketId: params.id });
    return { message: 'Successfully deleted' };
  });
}
