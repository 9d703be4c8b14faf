import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams } from './route';
import { access } from './permissions';
import { Bucket, BucketId } from './storage';

/**
 * The bucket routes of the Supabase Storage REST dialect (`/bucket`), as `@supabase/storage-js` calls
 * them, for apps holding one of the project's API keys or a user JWT. They run as the database role
 * the token names, so row-level security on `storage.buckets` decides (`service_role` bypasses it).
 * The service mounts them at `/:ref/v1`; the gateway serves that as `/p/:ref/storage/v1`.
 */

export const ApiBucketParams = Type.Object({ ref: RefParams.properties.ref, id: BucketId });

export const BUCKET_SORT_COLUMNS = ['id', 'name', 'created_at', 'updated_at'] as const;
export const ApiListBucketsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Case-insensitive part of the bucket's name. */
  search: Type.Optional(Type.String({ maxLength: 100 })),
  sortColumn: Type.Optional(Type.Union(BUCKET_SORT_COLUMNS.map((c) => Type.Literal(c)))),
  sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});
export type ApiListBucketsQuery = Static<typeof ApiListBucketsQuery>;

/** Bytes, or a size with a unit as storage-js accepts it (`'20MB'`; units step by 1024); null is no limit. */
export const ApiFileSizeLimit = Type.Union([
  Type.Integer({ minimum: 0 }),
  Type.String({ pattern: '^\\s*\\d+(\\.\\d+)?\\s*([bB]|[kKmMgGtT][bB])?\\s*$' }),
  Type.Null(),
]);
const ApiAllowedMimeTypes = Type.Union([Type.Array(Type.String({ minLength: 1, maxLength: 255 })), Type.Null()]);
/** Only standard buckets exist here (storage-js's analytics buckets are another product). */
const ApiBucketType = Type.Literal('STANDARD');

/**
 * storage-js sends the id as both `id` and `name`; a bucket's id is its name, so they must agree. The
 * name is checked by the service (a `BucketId`), which refuses others in Supabase Storage's words.
 */
export const ApiCreateBucketBody = Type.Object({
  name: Type.String(),
  id: Type.Optional(Type.String()),
  public: Type.Optional(Type.Boolean()),
  file_size_limit: Type.Optional(ApiFileSizeLimit),
  allowed_mime_types: Type.Optional(ApiAllowedMimeTypes),
  type: Type.Optional(ApiBucketType),
});
export type ApiCreateBucketBody = Static<typeof ApiCreateBucketBody>;

/** `id` and `name` repeat the path's id (the name cannot change); absent fields stay as they are. */
export const ApiUpdateBucketBody = Type.Object({
  id: Type.Optional(BucketId),
  name: Type.Optional(BucketId),
  public: Type.Optional(Type.Boolean()),
  file_size_limit: Type.Optional(ApiFileSizeLimit),
  allowed_mime_types: Type.Optional(ApiAllowedMimeTypes),
});
export type ApiUpdateBucketBody = Static<typeof ApiUpdateBucketBody>;

const Message = Type.Object({ message: Type.String() });

export const storageApiBucketRoutes = {
  listBuckets: defineRoute({
    service: 'storage',
    method: 'GET',
    url: '/:ref/v1/bucket',
    params: RefParams,
    querystring: ApiListBucketsQuery,
    response: Type.Array(Bucket),
    access: access.projectKey,
  }),
  getBucket: defineRoute({
    service: 'storage',
    method: 'GET',
    url: '/:ref/v1/bucket/:id',
    params: ApiBucketParams,
    response: Bucket,
    access: access.projectKey,
  }),
  createBucket: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/v1/bucket',
    params: RefParams,
    body: ApiCreateBucketBody,
    response: Type.Object({ name: Type.String() }),
    access: access.projectKey,
  }),
  updateBucket: defineRoute({
    service: 'storage',
    method: 'PUT',
    url: '/:ref/v1/bucket/:id',
    params: ApiBucketParams,
    body: ApiUpdateBucketBody,
    response: Message,
    access: access.projectKey,
  }),
  /** Deletes every object of the bucket the caller may delete (rows in one transaction, then their bytes). */
  emptyBucket: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/v1/bucket/:id/empty',
    params: ApiBucketParams,
    response: Message,
    access: access.projectKey,
  }),
  /** A bucket with objects is a 409: empty it first. Its policies stay (only the dashboard removes them). */
  deleteBucket: defineRoute({
    service: 'storage',
    method: 'DELETE',
    url: '/:ref/v1/bucket/:id',
    params: ApiBucketParams,
    response: Message,
    access: access.projectKey,
  }),
};
