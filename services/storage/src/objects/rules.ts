import { StorageApiMessages } from '@dash/contracts';
import { badRequest } from '@dash/service-kit';
import { invalidMimeType } from '../api-errors';
import type { BucketRules } from './common';

/** The media type of a Content-Type value, lower case and without parameters (`text/plain;charset=utf-8` → `text/plain`). */
export function mediaTypeOf(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/**
 * Whether a bucket takes files of `contentType`: any type when the bucket lists none; otherwise one of
 * its types matches exactly or as a wildcard (`image/*` takes `image/png`; `*` and `*\/*` take all).
 */
export function mimeTypeAllowed(allowed: readonly string[] | null, contentType: string): boolean {
  if (!allowed || allowed.length === 0) return true;
  const type = mediaTypeOf(contentType);
  return allowed.some((entry) => {
    const rule = entry.trim().toLowerCase();
    if (rule === '*' || rule === '*/*') return true;
    if (rule.endsWith('/*')) return type.startsWith(rule.slice(0, -1));
    return rule === type;
  });
}

/** 415 when the bucket does not take this type. */
export function checkMimeType(bucket: BucketRules, contentType: string): void {
  if (!mimeTypeAllowed(bucket.allowed_mime_types, contentType)) throw invalidMimeType(mediaTypeOf(contentType));
}

/** The most bytes an object of this bucket may have: the project's upload limit, or the bucket's when lower. */
export function uploadLimit(projectLimit: number, bucket: BucketRules): number {
  return bucket.file_size_limit === null ? projectLimit : Math.min(projectLimit, bucket.file_size_limit);
}

/** Header values we store and send back: printable ASCII only (no line breaks that would split a header). */
const HEADER_VALUE = /^[\x20-\x7e\t]*$/;

/**
 * The Cache-Control of an upload: a bare number of seconds (storage-js's `cacheControl: '3600'`) means
 * `max-age=<n>`; none means `no-cache`.
 */
export function cacheControlOf(value: string | undefined): string {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') return 'no-cache';
  if (!HEADER_VALUE.test(trimmed) || trimmed.length > 1024) throw badRequest('The cache control must be printable text of at most 1024 characters');
  return /^\d+$/.test(trimmed) ? `max-age=${trimmed}` : trimmed;
}

/** The Content-Type of an upload; none means `application/octet-stream`. */
export function contentTypeOf(value: string | undefined): string {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') return 'application/octet-stream';
  if (!HEADER_VALUE.test(trimmed) || trimmed.length > 255 || !/^[^/\s]+\/[^/\s;]+/.test(trimmed)) {
    throw badRequest(`Invalid content type "${trimmed.slice(0, 255)}": use type/subtype (like image/png)`);
  }
  return trimmed;
}

/** The app's own metadata of an object: a JSON object, or nothing. */
export function userMetadataOf(value: unknown): Record<string, unknown> | null {
  if (value === undefined || value === null || value === '') return null;
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw badRequest(StorageApiMessages.invalidMetadata);
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badRequest(StorageApiMessages.invalidMetadata);
  return parsed as Record<string, unknown>;
}

/** storage-js sends metadata in the `x-metadata` header as base64 JSON. */
export function userMetadataFromHeader(value: string | undefined): Record<string, unknown> | null {
  if (value === undefined || value.trim() === '') return null;
  return userMetadataOf(Buffer.from(value, 'base64').toString('utf8'));
}
