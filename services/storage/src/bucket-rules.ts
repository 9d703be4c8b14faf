import { Messages, type ApiCreateBucketBody, type ApiUpdateBucketBody, type CreateBucketBody } from '@dash/contracts';
import { badRequest } from '@dash/service-kit';
import { invalidBucketName } from './api-errors';
import type { BucketChanges, NewBucket } from './sql/buckets';

export const RESERVED_BUCKET_NAMES: readonly string[] = ['public'];

export const BUCKET_NAME_FIXED = 'The name of a bucket cannot change';
export const BUCKET_ID_NOT_NAME = "A bucket's id is its name: give the same id and name";
export const invalidMimeType = (type: string) => `Invalid MIME type "${type}": use type/subtype (like image/png) or type/* (like image/*)`;

/** The spec's bucket-name rules (shell spec section 5), in its order; null when the name is fine. */
export function bucketNameProblem(name: string): string | null {
  if (name.trim() === '') return Messages.bucketNameRequired;
  if (/\s$/.test(name)) return Messages.bucketNameTrailingWhitespace;
  if (RESERVED_BUCKET_NAMES.includes(name)) return Messages.bucketNameReserved;
  return null;
}

/** A MIME type (`type/subtype`) or a wildcard over one type (`type/*`), with RFC 6838's name characters. */
const MIME_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/(?:\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*)$/;

/**
 * MIME types as the create dialog sends them: trimmed, blanks dropped, repeats removed; no types at all
 * means any type (null).
 */
export function normalizeMimeTypes(types: readonly string[] | null | undefined): string[] | null {
  if (!types) return null;
  const cleaned = [...new Set(types.map((t) => t.trim()).filter((t) => t.length > 0))];
  return cleaned.length > 0 ? cleaned : null;
}

/** Normalized MIME types; throws a 400 naming the first entry that is not a MIME type. */
function allowedMimeTypesFrom(types: readonly string[] | null | undefined): string[] | null {
  const cleaned = normalizeMimeTypes(types);
  const wrong = cleaned?.find((t) => !MIME_TYPE.test(t));
  if (wrong !== undefined) throw badRequest(invalidMimeType(wrong));
  return cleaned;
}

const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4 };

/**
 * A bucket's upload limit in bytes: a number, or a size with a unit as storage-js allows (`'20MB'`, units
 * stepping by 1024); null is no limit of its own. Below 0 is the spec's 400.
 */
export function fileSizeLimitFrom(value: number | string | null | undefined): number | null {
  if (value === undefined || value === null) return null;
  const bytes = typeof value === 'number' ? value : bytesOf(value);
  if (bytes < 0) throw badRequest(Messages.bucketSizeLimitMin);
  return bytes;
}

function bytesOf(size: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(size);
  const unit = SIZE_UNITS[(match?.[2] || 'b').toLowerCase()];
  const bytes = match && unit !== undefined ? Math.floor(Number(match[1]) * unit) : NaN;
  if (!Number.isSafeInteger(bytes)) throw badRequest(`Invalid file size limit "${size}": use a number of bytes or a size like 20MB`);
  return bytes;
}

function checkedName(name: string): string {
  const problem = bucketNameProblem(name);
  if (problem) throw badRequest(problem);
  return name;
}

/** Checks a create request of the dashboard and turns it into the row to insert; throws a 400 with the spec's words. */
export function newBucketFrom(body: CreateBucketBody): NewBucket {
  return {
    name: checkedName(body.id),
    public: body.public,
    fileSizeLimit: fileSizeLimitFrom(body.file_size_limit),
    allowedMimeTypes: allowedMimeTypesFrom(body.allowed_mime_types),
  };
}

/** What a bucket's id may be (as the contracts' `BucketId`): 1 to 100 characters, no slash, backslash or NUL. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what it refuses
const BUCKET_ID = /^[^/\\\u0000]{1,100}$/u;

/**
 * The same for storage-js's create request: private unless `public` is given. A name the service
 * refuses is Supabase Storage's "Bucket name invalid" (its reason is for the dashboard).
 */
export function newApiBucketFrom(body: ApiCreateBucketBody): NewBucket {
  const problem = BUCKET_ID.test(body.name) ? bucketNameProblem(body.name) : `Invalid bucket name "${body.name.slice(0, 100)}"`;
  if (problem) throw invalidBucketName(problem);
  if (body.id !== undefined && body.id !== body.name) throw badRequest(BUCKET_ID_NOT_NAME);
  return {
    name: body.name,
    public: body.public ?? false,
    fileSizeLimit: fileSizeLimitFrom(body.file_size_limit),
    allowedMimeTypes: allowedMimeTypesFrom(body.allowed_mime_types),
  };
}

/**
 * What an update request (the dashboard's or storage-js's) changes; absent fields stay. storage-js
 * repeats the bucket's id as `id` and `name`: anything else would be a rename, which buckets do not have.
 */
export function bucketChangesFrom(id: string, body: ApiUpdateBucketBody): BucketChanges {
  if ([body.id, body.name].some((name) => name !== undefined && name !== id)) throw badRequest(BUCKET_NAME_FIXED);
  const changes: BucketChanges = {};
  if (body.public !== undefined) changes.public = body.public;
  if (body.file_size_limit !== undefined) changes.fileSizeLimit = fileSizeLimitFrom(body.file_size_limit);
  if (body.allowed_mime_types !== undefined) changes.allowedMimeTypes = allowedMimeTypesFrom(body.allowed_mime_types);
  return changes;
}

interface SchemaError {
  instancePath?: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * Validation messages for bucket bodies in the spec's words where the spec has them (a missing or empty
 * name, a negative size limit); anything else reads as Fastify's default does.
 */
export function bucketSchemaErrorMessage(errors: readonly SchemaError[], dataVar: string): string {
  for (const e of errors) {
    if (dataVar !== 'body') break;
    if (e.instancePath === '/id' && e.keyword === 'minLength') return Messages.bucketNameRequired;
    if (e.instancePath === '' && e.keyword === 'required' && e.params?.missingProperty === 'id') return Messages.bucketNameRequired;
    if (e.instancePath === '/file_size_limit' && e.keyword === 'minimum') return Messages.bucketSizeLimitMin;
  }
  return errors.map((e) => `${dataVar}${e.instancePath ?? ''} ${e.message ?? 'is invalid'}`).join(', ');
}
