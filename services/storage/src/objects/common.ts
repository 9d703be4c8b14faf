import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { StorageApiMessages, type Bucket, type ObjectMetadata } from '@dash/contracts';
import { projectDbError, projectQuery, projectTransaction, SqlState, type DatabaseCaller } from '@dash/service-kit';
import { accessDenied, alreadyExists, invalidKey, noSuchBucket, noSuchKey } from '../api-errors';
import { BytesNotFoundError, objectStorageKey } from '../backend/types';
import { objectNameError } from '../object-keys';
import { getBucketQuery } from '../sql/buckets';
import { findObjectQuery } from '../sql/objects';
import type { StorageContext } from '../app';

/*
 * What every object operation shares: who acts, the bucket's rules, the transaction as the caller with
 * Postgres's refusals turned into the storage API's answers, and the bytes' keys.
 */

/** The dashboard acts as the project's service role, as a hosted dashboard does with the service key. */
export const SERVICE_ROLE: DatabaseCaller = { role: 'service_role', claims: { role: 'service_role' } };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The owner of what the caller creates: the token's `sub` when it is a user id (a uuid), else nobody. */
export function ownerOf(caller: DatabaseCaller): string | null {
  const sub = caller.claims.sub;
  return typeof sub === 'string' && UUID.test(sub) ? sub : null;
}

/** An object row as the statements of `sql/objects.ts` return it. */
export interface ObjectRecord {
  id: string;
  bucket_id: string;
  name: string;
  owner: string | null;
  version: string | null;
  /** Null for a row whose bytes never arrived (made outside this service). */
  metadata: ObjectMetadata | null;
  user_metadata: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  last_accessed_at: Date;
}

/**
 * An object row's metadata as listings report it. The column is plain jsonb that anyone with SQL may
 * write, so a row made outside this service can lack fields: they get what an upload would have given,
 * and metadata without a usable size counts as none (the explorer then shows the file as unfinished).
 */
export function reportedMetadata(raw: unknown, updatedAt: Date | null): ObjectMetadata | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const given = raw as Record<string, unknown>;
  const size = given.size;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) return null;
  const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
  const integer = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isInteger(value) ? value : fallback);
  const lastModified = typeof given.lastModified === 'string' && !Number.isNaN(Date.parse(given.lastModified)) ? given.lastModified : isoDate(updatedAt ?? new Date(0));
  return {
    ...given,
    size,
    mimetype: text(given.mimetype, 'application/octet-stream'),
    cacheControl: text(given.cacheControl, 'no-cache'),
    eTag: text(given.eTag, ''),
    lastModified,
    contentLength: Math.max(0, integer(given.contentLength, size)),
    httpStatusCode: integer(given.httpStatusCode, 200),
  };
}

/** The backend key of an object's bytes, or null for a row that has none. */
export function bytesKeyOf(ref: string, row: { bucket_id: string; id: string; version: string | null }): string | null {
  return row.version === null ? null : objectStorageKey(ref, row.bucket_id, row.id, row.version);
}

/** Refuses a name that is not a safe object path (400 with the reason). */
export function checkObjectName(name: string): void {
  const problem = objectNameError(name);
  if (problem) throw invalidKey(name, problem);
}

export type BucketRules = Pick<Bucket, 'id' | 'public' | 'file_size_limit' | 'allowed_mime_types'>;

/**
 * A bucket's rules, read as the database owner: policies on `storage.buckets` govern the bucket API,
 * while object operations only need the bucket to exist (as in Supabase Storage). 404 when it does not.
 */
export async function findBucket(ctx: StorageContext, ref: string, bucketId: string): Promise<BucketRules> {
  // file_size_limit is a bigint, which pg returns as text.
  type Row = Omit<BucketRules, 'file_size_limit'> & { file_size_limit: string | null };
  const [row] = await projectQuery<Row>(ctx.pools, ref, getBucketQuery(bucketId)).catch((error: unknown) => {
    throw projectDbError(error);
  });
  if (!row) throw noSuchBucket();
  return { id: row.id, public: row.public, allowed_mime_types: row.allowed_mime_types, file_size_limit: row.file_size_limit === null ? null : Number(row.file_size_limit) };
}

/** Postgres's refusals of a write on `storage.objects`, as the storage API answers them. */
export function objectWriteError(error: unknown): unknown {
  if (error instanceof pg.DatabaseError) {
    if (error.code === SqlState.UniqueViolation) return alreadyExists();
    // A WITH CHECK policy refused the row, or the role lacks the privilege.
    if (error.code === SqlState.InsufficientPrivilege) return accessDenied(StorageApiMessages.rowLevelSecurity);
    // The bucket went away meanwhile.
    if (error.code === SqlState.ForeignKeyViolation) return noSuchBucket();
  }
  return projectDbError(error);
}

/** One transaction as `caller` (row-level security applies), its refusals mapped by `objectWriteError`. */
export async function asCaller<T>(ctx: StorageContext, ref: string, caller: DatabaseCaller, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  try {
    return await projectTransaction(ctx.pools, ref, caller, work);
  } catch (error) {
    throw objectWriteError(error);
  }
}

const ROLLBACK = Symbol('rollback');

/**
 * Runs `work` as `caller` and rolls it back: asks Postgres whether the caller may write before any
 * byte is stored (the policies decide, exactly as they will for the real write).
 */
export async function tryAsCaller(ctx: StorageContext, ref: string, caller: DatabaseCaller, work: (client: pg.PoolClient) => Promise<unknown>): Promise<void> {
  try {
    await asCaller(ctx, ref, caller, async (client) => {
      await work(client);
      throw ROLLBACK;
    });
  } catch (error) {
    if (error !== ROLLBACK) throw error;
  }
}

/** An object visible to `caller`, or a 404 (an object the caller may not read does not exist for them). */
export async function findObject(ctx: StorageContext, ref: string, caller: DatabaseCaller, bucketId: string, name: string): Promise<ObjectRecord> {
  checkObjectName(name);
  const row = await asCaller(ctx, ref, caller, async (client) => {
    const query = findObjectQuery(bucketId, name);
    return (await client.query<ObjectRecord>(query.text, query.values)).rows[0];
  });
  if (!row) throw noSuchKey();
  return row;
}

/** Keys per backend delete (S3 takes at most 1000 at once). */
const BYTES_DELETE_BATCH = 1000;

/**
 * Deletes bytes whose rows are gone for good, and their rendered images. A failure leaves unreachable
 * bytes, not a wrong answer, so it is logged rather than reported.
 */
export async function deleteBytes(ctx: StorageContext, keys: readonly (string | null)[], log: FastifyBaseLogger): Promise<void> {
  const present = keys.filter((key): key is string => key !== null);
  if (present.length === 0) return;
  try {
    for (let start = 0; start < present.length; start += BYTES_DELETE_BATCH) {
      await ctx.backend.delete(present.slice(start, start + BYTES_DELETE_BATCH));
    }
    await ctx.renders?.forget(present);
  } catch (error) {
    log.error({ err: error, keys: present.length }, 'the bytes of deleted or replaced objects could not all be deleted');
  }
}

export const isoDate = (date: Date): string => date.toISOString();

/** A backend's "no bytes at this key" as the storage API's 404 (a row whose bytes are gone). */
export function missingBytesAsNotFound(error: unknown): never {
  throw error instanceof BytesNotFoundError ? noSuchKey() : error;
}
