import { STORAGE_PREVIEW_MAX_BYTES } from '@dash/contracts';
import type { ExplorerItem } from './state';

export type PreviewKind = 'image' | 'video' | 'audio' | 'pdf' | 'text';

const TEXT_TYPES = ['application/json', 'application/xml', 'application/javascript', 'application/x-javascript', 'application/sql', 'application/x-sh', 'application/yaml', 'application/x-yaml', 'application/toml'];

/** How a file of this type is previewed, if at all. */
export function previewKind(mimetype: string | null): PreviewKind | null {
  if (!mimetype) return null;
  const type = mimetype.split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('text/') || TEXT_TYPES.includes(type) || type.endsWith('+json') || type.endsWith('+xml')) return 'text';
  return null;
}

/**
 * What the preview panel shows for a file: nothing to fetch (no type, no size, or a type without a
 * preview), skipped (over 10,000,000 bytes), or a URL to fetch.
 */
export function previewPlan(item: Pick<ExplorerItem, 'mimetype' | 'size'>): { kind: 'none' } | { kind: 'skipped' } | { kind: 'fetch'; as: PreviewKind } {
  const as = previewKind(item.mimetype);
  if (item.size === null || as === null) return { kind: 'none' };
  if (item.size > STORAGE_PREVIEW_MAX_BYTES) return { kind: 'skipped' };
  return { kind: 'fetch', as };
}

/** A public URL with a timestamp query, so a file replaced under the same name is not served from a cache. */
export function withTimestamp(url: string, timestamp: number): string {
  const parsed = new URL(url, globalThis.location?.origin);
  parsed.searchParams.set('t', String(timestamp));
  return parsed.toString();
}

/** A cached preview URL (spec section 3). */
export interface PreviewCacheEntry {
  id: string;
  url: string;
  /** Seconds the URL stays valid. */
  expiresIn: number;
  fetchedAt: number;
}

/** Signed preview URLs last a year: kept in memory for this page, per object version. */
const previewCache = new Map<string, PreviewCacheEntry>();
/** A cached URL is not handed out in its last minute. */
const EXPIRY_MARGIN_MS = 60_000;

export const previewCacheKey = (bucketKey: string, item: Pick<ExplorerItem, 'id' | 'updatedAt'>) => `${bucketKey}:${item.id}:${item.updatedAt}`;

export function cachedPreviewUrl(key: string, now: number): string | undefined {
  const entry = previewCache.get(key);
  if (!entry) return undefined;
  if (entry.fetchedAt + entry.expiresIn * 1000 - EXPIRY_MARGIN_MS > now) return entry.url;
  previewCache.delete(key);
  return undefined;
}

export function rememberPreviewUrl(key: string, entry: PreviewCacheEntry): void {
  previewCache.set(key, entry);
}
