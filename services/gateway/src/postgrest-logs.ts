import type { FastifyRequest } from 'fastify';
import type { LogEventInput, LogMetadata, OrgRole } from '@dash/contracts';

/**
 * The project's data REST API, as this product has it: the row routes of pg-meta (select, count, read a
 * value, insert, update, delete, truncate, CSV export and import of a table's rows) and its query route
 * (`sql/run`), i.e. what PostgREST serves for a hosted project. Catalog routes (tables, columns,
 * policies, roles…) are the dashboard's management API and are not PostgREST requests.
 */
const POSTGREST_PATH = /^\/api\/pg-meta\/[a-z0-9-]{1,64}\/(?:tables\/\d+\/rows(?:\/(?:select|count|value|delete|truncate|export|import))?|tables\/import|sql\/run)$/;

export function isPostgrestPath(path: string): boolean {
  return POSTGREST_PATH.test(path);
}

const callerRoles = new WeakMap<FastifyRequest, OrgRole | null>();

/** The proxy notes the caller's role in the request's project (null without a session). */
export function notePostgrestCaller(request: FastifyRequest, role: OrgRole | null): void {
  callerRoles.set(request, role);
}

/** The postgrest_logs event of a served request, made from its edge event; null for other routes. */
export function postgrestEvent(request: FastifyRequest, edge: LogEventInput): LogEventInput | null {
  const m = edge.metadata as LogMetadata['edge'];
  if (!edge.project_ref || !isPostgrestPath(m.path)) return null;
  const metadata: LogMetadata['postgrest'] = {
    method: m.method,
    path: m.path,
    status: m.status,
    duration_ms: m.duration_ms,
    role: callerRoles.get(request) ?? null,
  };
  return { ...edge, source: 'postgrest', metadata };
}
