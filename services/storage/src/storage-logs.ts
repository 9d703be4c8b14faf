import type { FastifyReply, FastifyRequest } from 'fastify';
import { storageApiBucketRoutes, storageApiRoutes, storageRoutes, type LogEventInput, type LogMetadata, type RouteDef } from '@dash/contracts';
import { shipRequestEvents, type LogShipper, type ServiceApp } from '@dash/service-kit';

/** Each route's operation is its contract name (`uploadObject`, `listBuckets`…), found by method and pattern. */
const OPERATIONS = new Map<string, string>(
  [storageRoutes, storageApiRoutes, storageApiBucketRoutes].flatMap((routes) =>
    Object.entries(routes as Record<string, RouteDef>).map(([name, def]) => [`${def.method} ${def.url}`, name] as const),
  ),
);
/** Operations whose bytes come in (the request body); every other one's go out (the reply). */
const INBOUND = new Set(['uploadObject', 'updateObject', 'signedUpload']);
const MAX_TEXT = 2000;

const socketAtStart = new WeakMap<FastifyRequest, { read: number; written: number }>();

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v.slice(0, MAX_TEXT) : null);

/** The storage_logs event of one request about a project (`:ref`); null for others (health, 404s). */
export function storageEvent(request: FastifyRequest, reply: FastifyReply): LogEventInput | null {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const ref = str(params.ref);
  const pattern = request.routeOptions.url;
  if (!ref || !pattern) return null;
  const operation = OPERATIONS.get(`${request.method} ${pattern}`) ?? `${request.method} ${pattern}`;
  const raw = request.raw.url ?? request.url;
  const path = raw.split('?')[0]!.slice(0, MAX_TEXT);
  const start = socketAtStart.get(request);
  const socket = request.raw.socket;
  const inbound = INBOUND.has(operation);
  const length = Number(request.headers['content-length']);
  const bytes = inbound
    ? Number.isFinite(length) ? length : Math.max(0, (socket?.bytesRead ?? 0) - (start?.read ?? 0))
    : Math.max(0, (socket?.bytesWritten ?? 0) - (start?.written ?? 0));
  const query = (request.query ?? {}) as Record<string, unknown>;
  const body = request.body !== null && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
  const identity = request.identity;
  const metadata: LogMetadata['storage'] = {
    method: request.method,
    path,
    status: reply.statusCode,
    duration_ms: Math.round(reply.elapsedTime * 100) / 100,
    bucket: str(params.bucket) ?? str(params.id),
    object: str(params['*']) ?? str(query.path) ?? str(body.path),
    operation,
    bytes,
    direction: start ? (inbound ? 'in' : 'out') : null,
    // An app's key names a database role; a member of the dashboard has a role in the project.
    role: request.projectKeyCaller?.role ?? (identity?.kind === 'user' ? (identity.projects[ref] ?? null) : null),
  };
  return {
    source: 'storage',
    project_ref: ref,
    timestamp: new Date(Date.now() - reply.elapsedTime).toISOString(),
    event_message: `${request.method} ${path} ${reply.statusCode}`,
    metadata,
  };
}

/** Ships a storage_logs event for every project request (never delaying or failing it). */
export function registerStorageLogs(app: ServiceApp, shipper: LogShipper | undefined): void {
  if (!shipper) return;
  app.addHook('onRequest', async (request) => {
    // What the connection had moved before this request: the difference at the end is this request's.
    socketAtStart.set(request, { read: request.raw.socket?.bytesRead ?? 0, written: request.raw.socket?.bytesWritten ?? 0 });
  });
  shipRequestEvents(app, shipper, storageEvent);
}
