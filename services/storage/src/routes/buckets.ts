import pg from 'pg';
import { storageRoutes, type Bucket } from '@dash/contracts';
import { addRoute, badRequest, conflict, projectQuery, type ServiceApp } from '@dash/service-kit';
import { newBucketFrom } from '../bucket-rules';
import { createBucketQuery, listBucketsQuery } from '../sql/buckets';
import type { StorageContext } from '../app';

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

export function registerBucketRoutes(app: ServiceApp, ctx: StorageContext): void {
  addRoute(app, storageRoutes.listBuckets, async ({ params }) => {
    const rows = await projectQuery<BucketRow>(ctx.pools, params.ref, listBucketsQuery());
    return rows.map(toBucket);
  });

  addRoute(app, storageRoutes.createBucket, async ({ params, body }) => {
    const bucket = newBucketFrom(body);
    try {
      const [row] = await projectQuery<BucketRow>(ctx.pools, params.ref, createBucketQuery(bucket));
      return toBucket(row!);
    } catch (error) {
      if (error instanceof pg.DatabaseError) {
        if (error.code === '23505') throw conflict(`The resource already exists: bucket "${bucket.name}"`);
        // Check constraints and bad values of the request (class 22 data exception, 23514 check violation).
        if (error.code === '23514' || error.code?.startsWith('22')) throw badRequest(error.message, error.code);
      }
      throw error;
    }
  });
}
