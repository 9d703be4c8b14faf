/** Renders at once, per process: libvips already uses several threads for one. */
export const DEFAULT_RENDER_SLOTS = 2;
/** Renders waiting for a slot; one more is refused at once. */
export const DEFAULT_RENDER_QUEUE = 8;

/**
 * At most `slots` image renders at once and at most `queue` more in line for a slot. A render holds its
 * source (up to 25 MB) and libvips' pixels while it runs, and anyone may ask for renders of a public
 * bucket's images: 8 at once took storage to 656 MiB. A render past the line is refused at once (the
 * caller answers 429 with Retry-After) rather than waited for.
 */
export class RenderSlots {
  private running = 0;
  /** Wakes the renders in line, first come first served. */
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly slots: number = DEFAULT_RENDER_SLOTS,
    readonly queue: number = DEFAULT_RENDER_QUEUE,
  ) {}

  /** Runs `work` once a slot is free; null, at once, when every slot is taken and the line is full. */
  run<T>(work: () => Promise<T>): Promise<T> | null {
    if (this.running >= this.slots && this.waiting.length >= this.queue) return null;
    return this.take().then(async () => {
      try {
        return await work();
      } finally {
        this.release();
      }
    });
  }

  private take(): Promise<void> {
    if (this.running < this.slots) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot to the next render in line, or frees it. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
