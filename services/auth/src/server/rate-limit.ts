/**
 * The auth API's rate limits, as GoTrue keeps them: counters in the server's memory (a restart forgets
 * them, as GoTrue's do), one bucket per project and limit and, for the per-IP ones, per client address.
 * A fixed window per bucket: `limit` events, then refused until the window that began with the first ends.
 * A changed limit starts a new window, as a hosted auth server restarted with its new settings does.
 */
export interface RateWindow {
  limit: number;
  windowMs: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, { startedAt: number; count: number; limit: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    /** Oldest buckets are forgotten beyond this many (a flood of addresses cannot grow memory without end). */
    private readonly maxBuckets = 100_000,
  ) {}

  /** Counts one event in `key`'s bucket; false (and nothing counted) when the window is already full. */
  take(key: string, window: RateWindow): boolean {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket || now - bucket.startedAt >= window.windowMs || bucket.limit !== window.limit) {
      this.buckets.delete(key);
      bucket = { startedAt: now, count: 0, limit: window.limit };
      this.buckets.set(key, bucket);
      if (this.buckets.size > this.maxBuckets) this.buckets.delete(this.buckets.keys().next().value as string);
    }
    if (bucket.count >= window.limit) return false;
    bucket.count += 1;
    return true;
  }
}

export const HOUR_MS = 3_600_000;
export const FIVE_MINUTES_MS = 300_000;
