import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IDENTITY_HEADER, logsRoutes, type LogEventInput } from '@dash/contracts';
import { signIdentity } from './identity';

const MAX_INGEST_BATCH = 1000;
const MAX_IN_FLIGHT = 4;

export interface LogShipperOptions {
  /** The logs service's origin. */
  logsUrl: string;
  secret: string;
  /** The sending service's name, signed into the identity of its posts. */
  caller: string;
  flushIntervalMs: number;
  batchSize: number;
  maxBuffered: number;
  timeoutMs?: number;
  onDrop?: (count: number, reason: string) => void;
}

/**
 * Buffers log events and posts them to the logs service's ingest route in batches (every interval, or
 * as soon as a batch is full). Shipping never blocks or fails the request that made the event: a batch
 * the logs service does not take is dropped and counted.
 */
export class LogShipper {
  private buffer: LogEventInput[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  readonly stats = { sent: 0, dropped: 0 };

  constructor(private readonly options: LogShipperOptions) {}

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.options.flushIntervalMs);
    this.timer.unref();
  }

  get buffered(): number {
    return this.buffer.length;
  }

  push(...events: LogEventInput[]): void {
    if (this.closed) return this.drop(events.length, 'closing');
    this.buffer.push(...events);
    if (this.buffer.length > this.options.maxBuffered) {
      const excess = this.buffer.length - this.options.maxBuffered;
      this.buffer.splice(0, excess);
      this.drop(excess, 'buffer full');
    }
    if (this.buffer.length >= this.options.batchSize) void this.flush();
  }

  /** Sends what is buffered (bounded concurrency unless forced); resolves when those posts are done. */
  flush(force = false): Promise<void> {
    while (this.buffer.length > 0 && (force || this.inFlight.size < MAX_IN_FLIGHT)) {
      const batch = this.buffer.splice(0, MAX_INGEST_BATCH);
      const post = this.post(batch).finally(() => this.inFlight.delete(post));
      this.inFlight.add(post);
    }
    return Promise.all([...this.inFlight]).then(() => undefined);
  }

  /** Stops the timer and ships everything still buffered. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush(true);
    this.closed = true;
  }

  private async post(events: LogEventInput[]): Promise<void> {
    try {
      const response = await fetch(`${this.options.logsUrl}${logsRoutes.ingest.url}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [IDENTITY_HEADER]: signIdentity(this.options.secret, { kind: 'service', sub: this.options.caller }),
        },
        body: JSON.stringify({ events }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
      });
      await response.body?.cancel();
      if (response.ok) this.stats.sent += events.length;
      else this.drop(events.length, `logs service answered ${response.status}`);
    } catch (error) {
      this.drop(events.length, (error as Error).message);
    }
  }

  private drop(count: number, reason: string): void {
    this.stats.dropped += count;
    this.options.onDrop?.(count, reason);
  }
}

/**
 * A shipper's `onDrop` that warns at most once per interval while the logs service is down, with the
 * count since the last warning.
 */
export function throttledDropWarning(warn: (fields: { count: number; reason: string }, message: string) => void, what: string, intervalMs = 30_000) {
  let last = 0;
  let since = 0;
  return (count: number, reason: string) => {
    since += count;
    if (Date.now() - last < intervalMs) return;
    warn({ count: since, reason }, `${what} dropped`);
    last = Date.now();
    since = 0;
  };
}

/**
 * The shipper of a service's per-request events (`DASH_LOGS_URL`: the logs service; none without it): flushed
 * every half second or at 100 events, at most 10,000 waiting, drops warned about through `warn` at most
 * every 30 s. `warn` is called late (a drop), so it may use the app the shipper is given to.
 */
export function serviceLogShipper(options: {
  logsUrl: string | undefined;
  secret: string;
  caller: string;
  /** What the events are, for the drop warning ("storage log events"). */
  what: string;
  warn: (fields: { count: number; reason: string }, message: string) => void;
}): LogShipper | undefined {
  if (!options.logsUrl) return undefined;
  return new LogShipper({
    logsUrl: options.logsUrl,
    secret: options.secret,
    caller: options.caller,
    flushIntervalMs: 500,
    batchSize: 100,
    maxBuffered: 10_000,
    onDrop: throttledDropWarning(options.warn, options.what),
  });
}

/**
 * Ships one event per answered request (`eventOf` says which, null for none), never delaying or failing the
 * request: started with the app, flushed and stopped when it closes. Nothing without a shipper.
 */
export function shipRequestEvents(app: FastifyInstance, shipper: LogShipper | undefined, eventOf: (request: FastifyRequest, reply: FastifyReply) => LogEventInput | null): void {
  if (!shipper) return;
  app.addHook('onReady', async () => shipper.start());
  app.addHook('onResponse', async (request, reply) => {
    const event = eventOf(request, reply);
    if (event) shipper.push(event);
  });
  app.addHook('onClose', async () => shipper.close());
}
