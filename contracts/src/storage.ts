import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams, Timestamp } from './route';
import { access, Permission } from './permissions';

/**
 * The dashboard's storage routes (`/api/storage/...`, a signed-in member's identity, checked against
 * the member's permissions). Object operations here run as `service_role`, as the dashboard of a hosted
 * project does with its service key; apps use the storage API of `storage-api.ts` with project keys.
 */

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

const FileSizeLimit = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]);
/** MIME types such as `image/png` or wildcards such as `image/*`; null or empty means any type. */
const AllowedMimeTypes = Type.Union([Type.Array(Type.String({ minLength: 1, maxLength: 255 })), Type.Null()]);

export const CreateBucketBody = Type.Object({
  id: BucketId,
  public: Type.Boolean(),
  file_size_limit: Type.Optional(FileSizeLimit),
  allowed_mime_types: Type.Optional(AllowedMimeTypes),
});
export type CreateBucketBody = Static<typeof CreateBucketBody>;

/** The name of a bucket cannot change; everything else can. Absent fields stay as they are. */
export const UpdateBucketBody = Type.Object(
  {
    public: Type.Optional(Type.Boolean()),
    file_size_limit: Type.Optional(FileSizeLimit),
    allowed_mime_types: Type.Optional(AllowedMimeTypes),
  },
  { additionalProperties: false },
);
export type UpdateBucketBody = Static<typeof UpdateBucketBody>;

export const BucketParams = Type.Object({ ref: RefParams.properties.ref, id: BucketId });

/**
 * An object path inside a bucket: segments separated by `/`, no empty, `.` or `..` segment, no leading
 * slash, no backslash or control character. The service checks the same rule (`objectKeyError`).
 */
export const ObjectPath = Type.String({ minLength: 1, maxLength: 1024 });
/** A folder path: '' is the bucket's root, otherwise a path without a trailing slash. */
export const FolderPath = Type.String({ maxLength: 1024 });

export const ObjectMetadata = Type.Object(
  {
    size: Type.Integer({ minimum: 0 }),
    mimetype: Type.String(),
    cacheControl: Type.String(),
    eTag: Type.String(),
    lastModified: Timestamp,
    contentLength: Type.Integer({ minimum: 0 }),
    httpStatusCode: Type.Integer(),
  },
  { additionalProperties: true },
);
export type ObjectMetadata = Static<typeof ObjectMetadata>;

/**
 * One entry of a folder listing, as Supabase Storage lists them: a file has an id and metadata, a
 * folder has `id: null` and null dates and metadata. `metadata` is null for a file whose upload never
 * finished (the explorer shows it as loading, then corrupted after 15 minutes).
 */
export const StorageItem = Type.Object({
  name: Type.String(),
  id: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.Union([Timestamp, Type.Null()]),
  updated_at: Type.Union([Timestamp, Type.Null()]),
  last_accessed_at: Type.Union([Timestamp, Type.Null()]),
  metadata: Type.Union([ObjectMetadata, Type.Null()]),
});
export type StorageItem = Static<typeof StorageItem>;

export const SORT_COLUMNS = ['name', 'created_at', 'updated_at', 'last_accessed_at'] as const;
export const ListSortBy = Type.Object({
  column: Type.Union(SORT_COLUMNS.map((c) => Type.Literal(c))),
  order: Type.Union([Type.Literal('asc'), Type.Literal('desc')]),
});
export type ListSortBy = Static<typeof ListSortBy>;

export const ListOptions = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Case-insensitive prefix of the names in the folder. */
  search: Type.Optional(Type.String({ maxLength: 1024 })),
  sortBy: Type.Optional(ListSortBy),
});
export type ListOptions = Static<typeof ListOptions>;

export const ListObjectsBody = Type.Object({ path: FolderPath, options: Type.Optional(ListOptions) });
export type ListObjectsBody = Static<typeof ListObjectsBody>;

export const UploadQuery = Type.Object({
  path: ObjectPath,
  /** Replace an existing object of the same name; without it a same-name upload is a 409. */
  upsert: Type.Optional(Type.Boolean()),
});

export const StoredObject = Type.Object({ id: Type.String(), path: Type.String(), fullPath: Type.String() });
export type StoredObject = Static<typeof StoredObject>;

export const SignBody = Type.Object({ path: ObjectPath, expiresIn: Type.Integer({ minimum: 1, maximum: 315_360_000 }) });
export const PathBody = Type.Object({ path: ObjectPath });

/**
 * Moves and renames in one transaction: a `from` ending in `/` is a folder and takes everything under
 * it; `to` is the new path (a folder's new path also ends in `/`). Any clash and nothing moves (409).
 */
export const MoveObjectsBody = Type.Object({
  moves: Type.Array(Type.Object({ from: ObjectPath, to: ObjectPath }), { minItems: 1, maxItems: 1000 }),
});
export type MoveObjectsBody = Static<typeof MoveObjectsBody>;

/**
 * Deletes files, and folders given with a trailing `/` (everything under them). A folder left empty by
 * the delete keeps existing: its placeholder file is re-created in the same transaction.
 */
export const RemoveObjectsBody = Type.Object({ paths: Type.Array(ObjectPath, { minItems: 1, maxItems: 1000 }) });
export type RemoveObjectsBody = Static<typeof RemoveObjectsBody>;

/** A zip of files and folders (trailing `/`), streamed; entries are named relative to `root`. */
export const ZipBody = Type.Object({
  paths: Type.Array(ObjectPath, { minItems: 1, maxItems: 1000 }),
  root: Type.Optional(FolderPath),
  name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\.zip$' }),
});
export type ZipBody = Static<typeof ZipBody>;

const Message = Type.Object({ message: Type.String() });
/** File bytes: not JSON, so the reply schema only documents them. */
const FileBytes = Type.Unknown({ description: 'the bytes of the file or archive' });

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
  updateBucket: defineRoute({
    service: 'storage',
    method: 'PATCH',
    url: '/:ref/buckets/:id',
    params: BucketParams,
    body: UpdateBucketBody,
    response: Bucket,
    access: access.project(Permission.StorageAdminWrite),
  }),
  /** Deletes every object of the bucket (rows in one transaction, then their bytes). */
  emptyBucket: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/buckets/:id/empty',
    params: BucketParams,
    response: Message,
    access: access.project(Permission.StorageAdminWrite),
  }),
  /**
   * Deletes an empty bucket and, in the same transaction, the policies on `storage.objects` grouped
   * under it (`policyBucket`). A bucket with objects is a 409: empty it first.
   */
  deleteBucket: defineRoute({
    service: 'storage',
    method: 'DELETE',
    url: '/:ref/buckets/:id',
    params: BucketParams,
    response: Type.Object({ message: Type.String(), deletedPolicies: Type.Array(Type.String()) }),
    access: access.project(Permission.StorageAdminWrite),
  }),
  listObjects: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/buckets/:id/objects/list',
    params: BucketParams,
    body: ListObjectsBody,
    response: Type.Array(StorageItem),
    access: access.project(Permission.ProjectStorageAll),
  }),
  /** The body is the file's bytes, sent as is (Content-Type and Cache-Control headers describe it). */
  uploadObject: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/buckets/:id/objects/upload',
    params: BucketParams,
    querystring: UploadQuery,
    response: StoredObject,
    access: access.project(Permission.StorageAdminWrite),
  }),
  publicUrl: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/buckets/:id/objects/public-url',
    params: BucketParams,
    body: PathBody,
    response: Type.Object({ publicUrl: Type.String() }),
    access: access.project(Permission.ProjectStorageAll),
  }),
  signUrl: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/buckets/:id/objects/sign',
    params: BucketParams,
    body: SignBody,
    response: Type.Object({ signedUrl: Type.String() }),
    access: access.project(Permission.ProjectStorageAll),
  }),
  downloadObject: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/buckets/:id/objects/download',
    params: BucketParams,
    body: PathBody,
    response: FileBytes,
    access: access.project(Permission.ProjectStorageAll),
  }),
  zipObjects: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/buckets/:id/objects/zip',
    params: BucketParams,
    body: ZipBody,
    response: FileBytes,
    access: access.project(Permission.ProjectStorageAll),
  }),
  moveObjects: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/buckets/:id/objects/move',
    params: BucketParams,
    body: MoveObjectsBody,
    response: Type.Object({ moved: Type.Integer({ minimum: 0 }) }),
    access: access.project(Permission.StorageAdminWrite),
  }),
  removeObjects: defineRoute({
    service: 'storage',
    method: 'DELETE',
    url: '/:ref/buckets/:id/objects',
    params: BucketParams,
    body: RemoveObjectsBody,
    response: Type.Object({ removed: Type.Array(Type.String()) }),
    access: access.project(Permission.StorageAdminWrite),
  }),
};
