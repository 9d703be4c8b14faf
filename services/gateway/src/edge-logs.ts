import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LogEventInput } from '@dash/contracts';
import { LogShipper, type LogShipperOptions } from '@dash/service-kit';

const REF = /^[a-z0-9-]{1,64}$/;
const MAX_PATH = 2000;

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

export type EdgeLogOptions = Omit<LogShipperOptions, 'caller'>;

/** Ships the gateway's events (edge and PostgREST) to the logs service; see the kit's LogShipper. */
export class EdgeLogShipper extends LogShipper {
  constructor(options: EdgeLogOptions) {
    super({ ...options, caller: 'gateway' });
  }
}
