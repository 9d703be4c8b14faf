import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LogEventInput, LogMetadata } from '@dash/contracts';
import { redactSecretParameters, shipRequestEvents, type LogShipper, type ServiceApp } from '@dash/service-kit';

const MAX_TEXT = 2000;
/** The query string of a request as logged: credentials replaced, kept short. */
export function loggedQuery(rawUrl: string): string | null {
  const at = rawUrl.indexOf('?');
  if (at === -1) return null;
  const parameters = redactSecretParameters(new URLSearchParams(rawUrl.slice(at + 1)));
  return decodeURIComponent(parameters.toString().replace(/\+/g, '%20')).slice(0, MAX_TEXT) || null;
}

/** The postgrest_logs event of one data API request (`/:ref/v1/...`); null for others (health). */
export function postgrestEvent(request: FastifyRequest, reply: FastifyReply): LogEventInput | null {
  const ref = (request.params as { ref?: unknown } | undefined)?.ref;
  if (typeof ref !== 'string' || !request.routeOptions.url?.startsWith('/:ref/v1')) return null;
  const raw = request.raw.url ?? request.url;
  // The path as the app called it: `/rest/v1/<what>` (this service sees `/<ref>/v1/<what>`).
  const path = `/rest${raw.split('?')[0]!.slice(ref.length + 1)}`.slice(0, MAX_TEXT);
  const metadata: LogMetadata['postgrest'] = {
    method: request.method,
    path,
    status: reply.statusCode,
    duration_ms: Math.round(reply.elapsedTime * 100) / 100,
    role: request.apiCallerRole ?? null,
    query: loggedQuery(raw),
  };
  return {
    source: 'postgrest',
    project_ref: ref,
    timestamp: new Date(Date.now() - reply.elapsedTime).toISOString(),
    event_message: `${request.method} ${path} ${reply.statusCode}`,
    metadata,
  };
}

/** Ships a postgrest_logs event for every data API request (never delaying or failing it). */
export function registerPostgrestLogs(app: ServiceApp, shipper: LogShipper | undefined): void {
  shipRequestEvents(app, shipper, postgrestEvent);
}
