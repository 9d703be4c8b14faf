import { Messages, VERSION_CONFLICT_CODE } from '@dash/contracts';
import { errorMessage } from '@dash/shell-sdk';

function replyOf(error: unknown): { status?: unknown; code?: unknown } {
  if (!error || typeof error !== 'object') return {};
  const e = error as { status?: unknown; data?: unknown };
  const code = e.data && typeof e.data === 'object' ? (e.data as { code?: unknown }).code : undefined;
  return { status: e.status, code };
}

/** A save based on an older version than the service's (409 `version_conflict`). */
export function isVersionConflict(error: unknown): boolean {
  const { status, code } = replyOf(error);
  return status === 409 && code === VERSION_CONFLICT_CODE;
}

/** A 404 saying the content is gone: a delete of it counts as done (shell spec, section 8). */
export function isContentGone(error: unknown): boolean {
  if (replyOf(error).status !== 404) return false;
  const message = errorMessage(error, '');
  return message === Messages.contentNotFound || message === Messages.contentsNotFound;
}

export function isNotFound(error: unknown): boolean {
  return replyOf(error).status === 404;
}

/** A fresh id for a snippet the browser creates (the service takes the client's id, so a retry is the same snippet). */
export function newSnippetId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
