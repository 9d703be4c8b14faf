import type { FastifyReply, FastifyRequest } from 'fastify';
import { logsRoutes, type LogEventInput } from '@dash/contracts';
import { signIdentity } from '@dash/service-kit';

const REF = /^[a-z0-9-]{1,64}$/;
const MAX_PATH = 2000;
const MAX_INGEST_BATCH = 1000;
const MAX_IN_FLIGHT = 4;

/**
 * The project a request is about: `/api/<pg-meta|storage|logs>/<ref>/...`,
 * `/api/platform/projects/<ref>/...` or an app's call of the project APIs, `/p/<ref>/...`; null for
 * anything else.
 */
export function projectRefOf(path: string): string | null {
  const segments = path.split('/');
  if (segments[1] === 'p') return segments[2] !== undefined && REF.test(segments[2]) ? segments[2] : null;
  // ['', 'api', service, ...]
  if (segments[1] !== 'api') return null;
  const candidate =
    segments[2] === 'platform' ? (segments[3] === 'projects' ? segments[4] : undefined) : ['pg-meta', 'storage', 'logs'].includes(segments[2] ?? '') ? segments[3] : undefined;
  return candidate !== undefined && candidate !== 'internal' && REF.test(candidate) ? candidate : null;
}

/**
 * Query values named `…token` are secrets (an invitation's `/join?token=`, also inside a sign-in
 * `returnTo`, or a signed URL's token): the log keeps that they were there, not what they were.
 */
export function redactTokens(query: string): string {
  return query.replace(/(token(?:=|%3D))[^&]*/gi, '$1[redacted]');
}

const bytesSentBefore = new WeakMap<FastifyRequest, number>();

/**
 * Notes what the connection had sent when the request arrived (an `onRequest` hook): the difference when
 * it has been served is its response's size on the wire, headers included, streamed bodies too.
 */
export function markRequestStart(request: FastifyRequest): void {
  bytesSentBefore.set(request, request.raw.socket?.bytesWritten ?? 0);
}

function responseBytes(request: FastifyRequest): number | null {
  const before = bytesSentBefore.get(request);
  const after = request.raw.socket?.bytesWritten;
  return before === undefined || after === undefined ? null : Math.max(0, after - before);
}

/** The edge event of one served request; `response_bytes` is the project's egress (organization usage). */
export function edgeEvent(request: FastifyRequest, reply: FastifyReply): LogEventInput {
  const raw = request.raw.url ?? request.url;
  const queryAt = raw.indexOf('?');
  const path = (queryAt === -1 ? raw : raw.slice(0, queryAt)).slice(0, MAX_PATH);
  const query = queryAt === -1 ? null : redactTokens(raw.slice(queryAt + 1)).slice(0, MAX_PATH);
  const status = reply.statusCode;
  const duration = Math.round(reply.elapsedTime * 100) / 100;
  const userAgent = request.headers['user-agent'];
  return {
    source: 'edge',
    project_ref: projectRefOf(path),
    timestamp: new Date(Date.now() - reply.elapsedTime).toISOString(),
    event_message: `${request.method} ${path} ${status}`,
    metadata: {
      method: request.method,
      path,
      status,
      duration_ms: duration,
      response_bytes: responseBytes(request),
      query,
      user_agent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null,
    },
  };
}

export interface EdgeLogOptions {
  logsUrl: string;
  secret: string;
  flushIntervalMs: number;
  batchSize: number;
  maxBuffered: number;
  timeoutMs?: number;
  onDrop?: (count: number, reason: string) => void;
}

/**
 * Buffers edge events and posts them to the logs service in batches (every interval, or as soon as a
 * batch is full). Shipping never blocks a request: failed batches are dropped and counted.
 */
export class EdgeLogShipper {
  private buffer: LogEventInput[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  readonly stats = { sent: 0, dropped: 0 };

  constructor(private readonly options: EdgeLogOptions) {}

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.options.flushIntervalMs);
    this.timer.unref();
  }

  get buffered(): number {
    return this.buffer.length;
  }

  push(event: LogEventInput): void {
    if (this.closed) return this.drop(1, 'gateway closing');
    this.buffer.push(event);
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
          'x-dash-identity': signIdentity(this.options.secret, { kind: 'service', sub: 'gateway' }),
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
