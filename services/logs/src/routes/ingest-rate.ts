interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per key (a warehouse access token): `burst` events at once, refilled at `perSecond`.
 * Kept in the process: one logs service per deployment; with several, each allows the rate on its own.
 */
export class EventRateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** Milliseconds until the key has any room (0: it has some now), without taking any. */
  waitMs(key: string, now = Date.now()): number {
    const bucket = this.refill(key, now);
    return bucket.tokens >= 1 ? 0 : Math.ceil(((1 - bucket.tokens) / this.perSecond) * 1000);
  }

  /**
   * Takes `count` events from the key's bucket; when it lacks them nothing is taken and the wait in ms is
   * returned. A batch larger than the burst passes on a full bucket and leaves a debt to wait out.
   */
  take(key: string, count: number, now = Date.now()): number {
    const bucket = this.refill(key, now);
    const need = Math.min(count, this.burst);
    if (bucket.tokens >= need) {
      bucket.tokens -= count;
      return 0;
    }
    return Math.ceil(((need - bucket.tokens) / this.perSecond) * 1000);
  }

  private refill(key: string, now: number): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= this.maxKeys) this.sweep(now);
      bucket = { tokens: this.burst, at: now };
      this.buckets.set(key, bucket);
      return bucket;
    }
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    return bucket;
  }

  /** Drops buckets that are full again (they hold nothing a new bucket would not). */
  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond >= this.burst) this.buckets.delete(key);
    }
  }
}
