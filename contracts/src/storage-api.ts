import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams, Timestamp } from './route';
import { access } from './permissions';
import { BucketId, ObjectMetadata, StorageItem } from './storage';

/**
 * The object routes of the Supabase Storage REST dialect (`/object/...`), as `@supabase/storage-js`
 * calls them. Apps call them with one of the project's API keys or a user JWT signed with the
 * project's secret (`Authorization: Bearer`, else `apikey`); each runs as the database role the token
 * names with its claims, so the policies on `storage.objects` decide (`service_role` bypasses them):
 * SELECT for list, download, info and signing, INSERT for upload, UPDATE (and SELECT) for upsert and
 * move, DELETE for remove. Signed and public URLs need no key: the token or the bucket's public flag
 * is the grant. The service mounts them at `/:ref/v1`; the gateway serves that as `/p/:ref/storage/v1`.
 */

/** The texts of the storage API's refusals (storage-js shows `message`). */
export const StorageApiMessages = {
  bucketNotFound: 'Bucket not found',
  objectNotFound: 'Object not found',
  alreadyExists: 'The resource already exists',
  bucketNotEmpty: 'The bucket you tried to delete is not empty',
  invalidBucketName: 'Bucket name invalid',
  invalidKey: (key: string) => `Invalid key: ${key}`,
  tooLarge: 'The object exceeded the maximum allowed size',
  mimeNotAllowed: (mimeType: string) => `mime type ${mimeType} is not supported`,
  rowLevelSecurity: 'new row violates row-level security policy',
  /** A path of a sign-many call that does not exist or that the caller's role cannot see (the two are not told apart). */
  signUnavailable: 'Either the object does not exist or you do not have access to it',
  routeNotFound: (method: string, path: string) => `Route ${method}:${path} not found`,
  missingKey: 'No API key found in request: send it as "Authorization: Bearer <key>" or as the "apikey" header',
  roleNotAllowed: (role: string) => `The role "${role}" of this token cannot use the storage API`,
  uploadCutOff: 'The upload ended before the whole file arrived',
  noFileInForm: 'The form has no file: send the file as a form field',
  invalidMetadata: 'The metadata must be a JSON object',
  signedUrlMismatch: 'Invalid signature: the token was not signed for this object',
  signedUrlPurpose: 'Invalid signature: the token was not signed for this operation',
  rangeNotSatisfiable: 'The requested range is not satisfiable',
  sameObject: 'The source and the destination are the same object',
  listV2BadSortColumn: (column: string) => `Cannot sort a listV2 by "${column}": sort by name, created_at or updated_at`,
  invalidCursor: 'Invalid cursor: pass the nextCursor of the previous page',
  changedMeanwhile: 'The object changed while it was being moved: try again',
  moveKindMismatch: (from: string, to: string) => `Cannot move "${from}" to "${to}": move a folder (ending with /) to a folder, a file to a file`,
  moveIntoItself: (folder: string) => `Cannot move the folder "${folder}" into itself`,
  zipOutsideRoot: (path: string, root: string) => `"${path}" is not inside the folder "${root}"`,
  notPublic: (bucket: string) => `The bucket "${bucket}" is not public: use a signed URL`,
  badSortColumn: (column: string) => `Cannot sort by "${column}": sort by name, created_at, updated_at or last_accessed_at`,
  imageUnsupported: 'The source image is invalid or unsupported for rendering',
  imageFileTooLarge: 'The source image file is too large to process',
  imageResolutionTooLarge: 'The source image resolution is too large to process',
  imageOutputTooLarge: (maxSize: number) => `The transformed image would be more than ${maxSize} pixels wide or high: ask for a smaller width or height`,
  renderBusy: 'Too many image transformations are running: try again in a moment',
} as const;

/** A signed URL lives at most this long (a year, as the dashboard's longest preset; more is refused). */
export const SIGNED_URL_MAX_EXPIRY_SECONDS = 315_360_000;
/** A signed upload URL lives this long (two hours, as Supabase Storage's). */
export const SIGNED_UPLOAD_URL_EXPIRY_SECONDS = 7_200;
/** At most this many objects per remove, sign-many or list call. */
export const STORAGE_API_MAX_ITEMS = 1000;

/** `/:ref/v1/object/.../:bucket/<object path>`: the path is the rest of the URL, decoded. */
export const ApiObjectParams = Type.Object({ ref: RefParams.properties.ref, bucket: BucketId, '*': Type.String() });
export type ApiObjectParams = Static<typeof ApiObjectParams>;
export const ApiBucketObjectsParams = Type.Object({ ref: RefParams.properties.ref, bucket: BucketId });

/** Upload and update reply: the object's id and its `bucket/path` key. */
export const ApiStoredObject = Type.Object({ Id: Type.String(), Key: Type.String() });

/** The sort of a listing; the column is checked by the service (storage-js sends any string). */
const ApiSortBy = Type.Object({ column: Type.Optional(Type.String()), order: Type.Optional(Type.String()) });

/**
 * `prefix` is a folder ('' is the bucket's root); `search` a case-insensitive prefix of the names in it.
 * A page holds at most 1500 entries, however many are asked for (as Supabase Storage's).
 */
export const ApiListBody = Type.Object({
  prefix: Type.String({ maxLength: 1024 }),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  search: Type.Optional(Type.String({ maxLength: 1024 })),
  sortBy: Type.Optional(ApiSortBy),
});
export type ApiListBody = Static<typeof ApiListBody>;

/** The columns `listV2` sorts by, as Supabase Storage's (`last_accessed_at` is `list`'s only). */
export const LIST_V2_SORT_COLUMNS = ['name', 'created_at', 'updated_at'] as const;
export type ListV2SortColumn = (typeof LIST_V2_SORT_COLUMNS)[number];

/**
 * A flat listing (all objects whose path starts with `prefix`, a plain string prefix) or, with
 * `with_delimiter`, the folders and files right under it. `sortBy` takes a column of
 * LIST_V2_SORT_COLUMNS (checked by the service) and `asc` or `desc`; sorted by a date, ties (to the
 * millisecond) go by full path in the same order, and a folder sorts at the creation date of its
 * oldest object. `cursor` is the `nextCursor` of the page before: it carries the sort, which wins
 * over `sortBy` (a client may send the cursor alone).
 */
export const ApiListV2Body = Type.Object({
  prefix: Type.Optional(Type.String({ maxLength: 1024 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  cursor: Type.Optional(Type.String({ maxLength: 2048 })),
  with_delimiter: Type.Optional(Type.Boolean()),
  sortBy: Type.Optional(ApiSortBy),
});
export type ApiListV2Body = Static<typeof ApiListV2Body>;

export const ApiListV2Object = Type.Object({
  /** The full path of the object (as `key`). */
  name: Type.String(),
  key: Type.String(),
  id: Type.String(),
  version: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  last_accessed_at: Timestamp,
  metadata: Type.Union([ObjectMetadata, Type.Null()]),
});
/** A folder under the prefix: its full path, ending with `/`. */
export const ApiListV2Folder = Type.Object({ name: Type.String(), key: Type.String() });
export const ApiListV2Reply = Type.Object({
  hasNext: Type.Boolean(),
  nextCursor: Type.Optional(Type.String()),
  folders: Type.Array(ApiListV2Folder),
  objects: Type.Array(ApiListV2Object),
});
export type ApiListV2Reply = Static<typeof ApiListV2Reply>;

/** What `info()` reads (storage-js turns the keys to camelCase); `metadata` is the app's own metadata. */
export const ApiObjectInfo = Type.Object({
  id: Type.String(),
  version: Type.String(),
  name: Type.String(),
  bucket_id: Type.String(),
  size: Type.Integer({ minimum: 0 }),
  content_type: Type.String(),
  cache_control: Type.String(),
  etag: Type.String(),
  last_modified: Timestamp,
  created_at: Timestamp,
  metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
});
export type ApiObjectInfo = Static<typeof ApiObjectInfo>;

/** Move or copy one object, within its bucket or into `destinationBucket`. */
export const ApiMoveBody = Type.Object({
  bucketId: BucketId,
  sourceKey: Type.String({ minLength: 1, maxLength: 1024 }),
  destinationKey: Type.String({ minLength: 1, maxLength: 1024 }),
  destinationBucket: Type.Optional(BucketId),
  sourceVersionId: Type.Optional(Type.String()),
});
export type ApiMoveBody = Static<typeof ApiMoveBody>;

/** With `copyMetadata: false`, `metadata` overrides the copy's content type and cache control. */
export const ApiCopyBody = Type.Object({
  ...ApiMoveBody.properties,
  copyMetadata: Type.Optional(Type.Boolean()),
  metadata: Type.Optional(
    Type.Object({
      cacheControl: Type.Optional(Type.String({ maxLength: 1024 })),
      mimetype: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
      contentEncoding: Type.Optional(Type.String()),
    }),
  ),
});
export type ApiCopyBody = Static<typeof ApiCopyBody>;

/** Exact object paths to delete (not folders). */
export const ApiRemoveBody = Type.Object({
  prefixes: Type.Array(Type.String({ minLength: 1, maxLength: 1024 }), { minItems: 1, maxItems: STORAGE_API_MAX_ITEMS }),
});

/** A removed object, as Supabase Storage lists them. */
export const ApiRemovedObject = Type.Object({
  id: Type.String(),
  name: Type.String(),
  bucket_id: Type.String(),
  owner: Type.Union([Type.String(), Type.Null()]),
  version: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
  last_accessed_at: Timestamp,
  metadata: Type.Union([ObjectMetadata, Type.Null()]),
});

/**
 * An image transformation, as storage-js sends it (query parameters, or `transform` when signing):
 * sizes in pixels (0 is none; at most 2500), `resize` `cover` (the default: fill the box, cropping),
 * `contain` (fit inside it) or `fill` (stretch to it), `quality` 20 to 100 (default 80), and `format`
 * `origin` (keep the original's), `webp` or `avif`; without a format, clients that accept WebP get it.
 */
export const ImageTransform = Type.Object({
  width: Type.Optional(Type.Integer({ minimum: 0 })),
  height: Type.Optional(Type.Integer({ minimum: 0 })),
  resize: Type.Optional(Type.Union([Type.Literal('cover'), Type.Literal('contain'), Type.Literal('fill')])),
  quality: Type.Optional(Type.Integer({ minimum: 20, maximum: 100 })),
  format: Type.Optional(Type.Union([Type.Literal('origin'), Type.Literal('webp'), Type.Literal('avif')])),
});
export type ImageTransform = Static<typeof ImageTransform>;

const ExpiresIn = Type.Integer({ minimum: 1, maximum: SIGNED_URL_MAX_EXPIRY_SECONDS });
/** With `transform`, the URL is a signed image rendering (`/render/image/sign/...`) of that transformation. */
export const ApiSignBody = Type.Object({ expiresIn: ExpiresIn, transform: Type.Optional(ImageTransform) });
export const ApiSignManyBody = Type.Object({
  expiresIn: ExpiresIn,
  paths: Type.Array(Type.String({ minLength: 1, maxLength: 1024 }), { minItems: 1, maxItems: STORAGE_API_MAX_ITEMS }),
});
/** `signedURL` is relative to `/v1` with the path not encoded (storage-js encodes it). */
export const ApiSignedUrl = Type.Object({ signedURL: Type.String() });
export const ApiSignedUrlEntry = Type.Object({
  path: Type.String(),
  signedURL: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});

/** `download` asks for `Content-Disposition: attachment` (empty: the object's own file name). */
export const ApiDownloadQuery = Type.Object({ download: Type.Optional(Type.String({ maxLength: 1024 })) });
export const ApiSignedDownloadQuery = Type.Object({ token: Type.String({ minLength: 1 }), download: Type.Optional(Type.String({ maxLength: 1024 })) });
export const ApiSignedUploadQuery = Type.Object({ token: Type.String({ minLength: 1 }) });
export const ApiRenderQuery = Type.Object({ ...ImageTransform.properties, ...ApiDownloadQuery.properties });
export const ApiSignedUploadUrl = Type.Object({ url: Type.String(), token: Type.String() });

const Message = Type.Object({ message: Type.String() });
/** File bytes: not JSON, so the reply schema only documents them. */
const FileBytes = Type.Unknown({ description: 'the bytes of the object (206 with a Range header)' });

export const storageApiRoutes = {
  /**
   * Body: the file's bytes as they are (Content-Type, Cache-Control, `x-upsert: true` to replace,
   * `x-metadata`: base64 JSON of the app's metadata), or a multipart form with the file and the fields
   * `cacheControl` and `metadata`. A name that exists is a 409 unless upserting.
   */
  uploadObject: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/v1/object/:bucket/*',
    params: ApiObjectParams,
    response: ApiStoredObject,
    access: access.projectKey,
  }),
  /** As an upload with `x-upsert: true`: creates or replaces. */
  updateObject: defineRoute({
    service: 'storage',
    method: 'PUT',
    url: '/:ref/v1/object/:bucket/*',
    params: ApiObjectParams,
    response: ApiStoredObject,
    access: access.projectKey,
  }),
  /** The bytes, streamed; HEAD gives the headers only; a Range header gives a 206. */
  downloadObject: defineRoute({
    service: 'storage',
    method: 'GET',
    url: '/:ref/v1/object/:bucket/*',
    params: ApiObjectParams,
    querystring: ApiDownloadQuery,
    response: FileBytes,
    access: access.projectKey,
  }),
  objectInfo: defineRoute({
    service: 'storage',
    method: 'GET',
    url: '/:ref/v1/object/info/:bucket/*',
    params: ApiObjectParams,
    response: ApiObjectInfo,
    access: access.projectKey,
  }),
  /** The folders (first; `id: null`) and files right under `prefix`; `.emptyFolderPlaceholder` is hidden. */
  listObjects: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/v1/object/list/:bucket',
    params: ApiBucketObjectsParams,
    body: ApiListBody,
    response: Type.Array(StorageItem),
    access: access.projectKey,
  }),
  listObjectsV2: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/v1/object/list-v2/:bucket',
    params: ApiBucketObjectsParams,
    body: ApiListV2Body,
    response: ApiListV2Reply,
    access: access.projectKey,
  }),
  moveObject: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/v1/object/move',
    params: RefParams,
    body: ApiMoveBody,
    response: Message,
    access: access.projectKey,
  }),
  /** `x-upsert: true` replaces an object at the destination. */
  copyObject: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/v1/object/copy',
    params: RefParams,
    body: ApiCopyBody,
    response: ApiStoredObject,
    access: access.projectKey,
  }),
  /** Deletes the named objects the caller may delete; replies with those deleted. */
  removeObjects: defineRoute({
    service: 'storage',
    method: 'DELETE',
    url: '/:ref/v1/object/:bucket',
    params: ApiBucketObjectsParams,
    body: ApiRemoveBody,
    response: Type.Array(ApiRemovedObject),
    access: access.projectKey,
  }),
  signObject: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/v1/object/sign/:bucket/*',
    params: ApiObjectParams,
    body: ApiSignBody,
    response: ApiSignedUrl,
    access: access.projectKey,
  }),
  /** One entry per path, in order; a path the caller cannot read has `error` and no URL. */
  signObjects: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/v1/object/sign/:bucket',
    params: ApiBucketObjectsParams,
    body: ApiSignManyBody,
    response: Type.Array(ApiSignedUrlEntry),
    access: access.projectKey,
  }),
  /** A signed URL: the token (from `signObject`) is the grant, no key needed. */
  signedDownload: defineRoute({
    service: 'storage',
    method: 'GET',
    url: '/:ref/v1/object/sign/:bucket/*',
    params: ApiObjectParams,
    querystring: ApiSignedDownloadQuery,
    response: FileBytes,
    access: access.public,
  }),
  /** Objects of public buckets, no key needed; any other bucket is "Bucket not found". */
  publicDownload: defineRoute({
    service: 'storage',
    method: 'GET',
    url: '/:ref/v1/object/public/:bucket/*',
    params: ApiObjectParams,
    querystring: ApiDownloadQuery,
    response: FileBytes,
    access: access.public,
  }),
  /** A URL to upload one object without a key, for two hours; the caller must be allowed to upload it now. */
  signUpload: defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/v1/object/upload/sign/:bucket/*',
    params: ApiObjectParams,
    response: ApiSignedUploadUrl,
    access: access.projectKey,
  }),
  /** Uploads with a signed upload URL's token (body as for `uploadObject`). */
  signedUpload: defineRoute({
    service: 'storage',
    method: 'PUT',
    url: '/:ref/v1/object/upload/sign/:bucket/*',
    params: ApiObjectParams,
    querystring: ApiSignedUploadQuery,
    response: ApiStoredObject,
    access: access.public,
  }),
  /** An image, transformed as the query asks (`download` with storage-js); as `downloadObject` for access. */
  renderAuthenticated: defineRoute({
    service: 'storage',
    method: 'GET',
    url: '/:ref/v1/render/image/authenticated/:bucket/*',
    params: ApiObjectParams,
    querystring: ApiRenderQuery,
    response: FileBytes,
    access: access.projectKey,
  }),
  /** An image of a public bucket, transformed as the query asks (`getPublicUrl` with a transform). */
  renderPublic: defineRoute({
    service: 'storage',
    method: 'GET',
    url: '/:ref/v1/render/image/public/:bucket/*',
    params: ApiObjectParams,
    querystring: ApiRenderQuery,
    response: FileBytes,
    access: access.public,
  }),
  /** An image transformed as its signed URL's token says (`createSignedUrl` with a transform); the query's transform is ignored. */
  renderSigned: defineRoute({
    service: 'storage',
    method: 'GET',
    url: '/:ref/v1/render/image/sign/:bucket/*',
    params: ApiObjectParams,
    querystring: ApiSignedDownloadQuery,
    response: FileBytes,
    access: access.public,
  }),
};
