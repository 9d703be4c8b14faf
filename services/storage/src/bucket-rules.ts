import { Messages, type CreateBucketBody } from '@dash/contracts';
import { badRequest } from '@dash/service-kit';
import type { NewBucket } from './sql/buckets';

export const RESERVED_BUCKET_NAMES: readonly string[] = ['public'];

/** The spec's bucket-name rules (shell spec section 5), in its order; null when the name is fine. */
export function bucketNameProblem(name: string): string | null {
  if (name.trim() === '') return Messages.bucketNameRequired;
  if (/\s$/.test(name)) return Messages.bucketNameTrailingWhitespace;
  if (RESERVED_BUCKET_NAMES.includes(name)) return Messages.bucketNameReserved;
  return null;
}

/**
 * MIME types as the create dialog sends them: trimmed, blanks dropped, repeats removed; no types at all
 * means any type (null).
 */
export function normalizeMimeTypes(types: readonly string[] | null | undefined): string[] | null {
  if (!types) return null;
  const cleaned = [...new Set(types.map((t) => t.trim()).filter((t) => t.length > 0))];
  return cleaned.length > 0 ? cleaned : null;
}

/** Checks a create request and turns it into the row to insert; throws a 400 with the spec's words. */
export function newBucketFrom(body: CreateBucketBody): NewBucket {
  const problem = bucketNameProblem(body.id);
  if (problem) throw badRequest(problem);
  const limit = body.file_size_limit ?? null;
  if (limit !== null && limit < 0) throw badRequest(Messages.bucketSizeLimitMin);
  return {
    name: body.id,
    public: body.public,
    fileSizeLimit: limit,
    allowedMimeTypes: normalizeMimeTypes(body.allowed_mime_types),
  };
}

interface SchemaError {
  instancePath?: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * Validation messages for the create-bucket body in the spec's words where the spec has them (a missing
 * or empty name, a negative size limit); anything else reads as Fastify's default does.
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
