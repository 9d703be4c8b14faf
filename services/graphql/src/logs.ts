import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LogEventInput, LogMetadata } from '@dash/contracts';
import { shipRequestEvents, type LogShipper, type ServiceApp } from '@dash/service-kit';

/**
 * The log event of one GraphQL request: the data API's source (`postgrest_logs`, as the project's API report
 * counts it) with the path apps call, `/graphql/v1`. `role` is the role it ran as, null when its token was
 * refused. The query document is not logged: its literals may be anything the app sends.
 */
export function graphqlEvent(request: FastifyRequest, reply: FastifyReply, role: string | null): LogEventInput | null {
  const ref = (request.params as { ref?: unknown } | undefined)?.ref;
  if (typeof ref !== 'string' || !request.routeOptions.url?.startsWith('/:ref/v1')) return null;
  const metadata: LogMetadata['postgrest'] = {
    method: request.method,
    path: '/graphql/v1',
    status: reply.statusCode,
    duration_ms: Math.round(reply.elapsedTime * 100) / 100,
    role,
    query: null,
  };
  return {
    source: 'postgrest',
    project_ref: ref,
    timestamp: new Date(Date.now() - reply.elapsedTime).toISOString(),
    event_message: `${request.method} /graphql/v1 ${reply.statusCode}`,
    metadata,
  };
}

/** Ships an event for every GraphQL request (never delaying or failing it); `roleOf` says what it ran as. */
export function registerGraphqlLogs(app: ServiceApp, shipper: LogShipper | undefined, roleOf: (request: FastifyRequest) => string | null): void {
  shipRequestEvents(app, shipper, (request, reply) => graphqlEvent(request, reply, roleOf(request)));
}
