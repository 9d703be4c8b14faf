import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams, Timestamp } from './route';
import { access, Permission } from './permissions';

export const Bucket = Type.Object({
  id: Type.String(),
  name: Type.String(),
  owner: Type.Union([Type.String(), Type.Null()]),
  public: Type.Boolean(),
  file_size_limit: Type.Union([Type.Integer(), Type.Null()]),
  allowed_mime_types: Type.Union([Type.Array(Type.String()), Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Bucket = Static<typeof Bucket>;

/** A bucket id is its name; kept to what object paths and URLs carry safely. */
export const BucketId = Type.String({ minLength: 1, maxLength: 100, pattern: '^[^/\\\\\\u0000]+$' });

export const CreateBucketBody = Type.Object({
  id: BucketId,
  public: Type.Boolean(),
  file_size_limit: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  allowed_mime_types: Type.Optional(Type.Union([Type.Array(Type.String({ minLength: 1, maxLength: 255 })), Type.Null()])),
});
export type CreateBucketBody = Static<typeof CreateBucketBody>;

export const storageRoutes = {
  listBuckets: defineRoute({
    service: 'storage',
    method: 'GET',
    url: '/:ref/buckets',
    params: RefParams,
    response: Type.Array(Bucket),
    access: access.project(Permission.ProjectStorageAll),
  }),
  createBucket: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/buckets',
    params: RefParams,
    body: CreateBucketBody,
    response: Bucket,
    status: 201,
    access: access.project(Permission.StorageAdminWrite),
  }),
};
