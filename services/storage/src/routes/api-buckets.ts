import { storageApiBucketRoutes } from '@dash/contracts';
import { addRoute, projectKeyCallerOf, type ServiceApp } from '@dash/service-kit';
import { bucketChangesFrom, newApiBucketFrom } from '../bucket-rules';
import { createBucket, deleteBucket, emptyBucket, getBucket, listBuckets, updateBucket } from './buckets';
import type { StorageContext } from '../app';

/**
 * The storage API's bucket routes, as `@supabase/storage-js` calls them. Each runs as the database role
 * of the caller's key (row-level security on the storage tables decides; `service_role` bypasses it)
 * and replies in the shapes storage-js reads.
 */
export function registerApiBucketRoutes(app: ServiceApp, ctx: StorageContext): void {
  addRoute(app, storageApiBucketRoutes.listBuckets, async ({ params, query, request }) =>
    listBuckets(ctx, params.ref, projectKeyCallerOf(request), query),
  );

  addRoute(app, storageApiBucketRoutes.getBucket, async ({ params, request }) => getBucket(ctx, params.ref, projectKeyCallerOf(request), params.id));

  addRoute(app, storageApiBucketRoutes.createBucket, async ({ params, body, request }) => {
    const bucket = await createBucket(ctx, params.ref, projectKeyCallerOf(request), newApiBucketFrom(body));
    return { name: bucket.name };
  });

  addRoute(app, storageApiBucketRoutes.updateBucket, async ({ params, body, request }) => {
    await updateBucket(ctx, params.ref, projectKeyCallerOf(request), params.id, bucketChangesFrom(params.id, body));
    return { message: 'Successfully updated' };
  });

  addRoute(app, storageApiBucketRoutes.emptyBucket, async ({ params, request }) => {
    await emptyBucket(ctx, params.ref, projectKeyCallerOf(request), params.id, request.log);
    return { message: 'Successfully emptied' };
  });

  addRoute(app, storageApiBucketRoutes.deleteBucket, async ({ params, request }) => {
    await deleteBucket(ctx, params.ref, projectKeyCallerOf(request), params.id, { dropPolicies: false });
    return { message: 'Successfully deleted' };
  });
}
