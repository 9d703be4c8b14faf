/**
 * In-memory fixed-window counters for sign-in attempts. An attempt is counted *before* the password
 * is checked, so a burst of parallel guesses cannot slip past the limit while scrypt runs.
 */
export interface LimitRule {
  key: string;
  max: number;
}

interface Window {
  count: number;
  resetAt: number;
}

export class AttemptLimiter {
  private readonly windows = new Map<string, Window>();
  private calls = 0;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts one attempt against every rule, or none when any rule is already exhausted.
   * Returns the milliseconds until the blocking window ends, or 0 when the attempt may proceed.
   */
  hit(rules: LimitRule[]): number {
    const now = this.now();
    if (++this.calls % 1000 === 0) this.prune(now);
    let retryAfter = 0;
    for (const rule of rules) {
      const window = this.current(rule.key, now);
      if (window && window.count >= rule.max) retryAfter = Math.max(retryAfter, window.resetAt - now);
    }
    if (retryAfter > 0) return retryAfter;
    for (const rule of rules) {
      const window = this.current(rule.key, now);
      if (window) window.count += 1;
      else this.windows.set(rule.key, { count: 1, resetAt: now + this.windowMs });
    }
    return 0;
  }

  /** Forgets a key (e.g. the email and address of a successful sign-in). */
  reset(key: string): void {
    this.windows.delete(key);
  }

  /** Takes back one attempt of a key without forgetting the others' attempts. */
  release(key: string): void {
    const window = this.current(key, this.now());
    if (window && window.count > 0) window.count -= 1;
  }

  private current(key: string, now: number): Window | undefined {
    const window = this.windows.get(key);
    if (window && window.resetAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
