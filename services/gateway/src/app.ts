import Fastify, { type FastifyInstance } from 'fastify';
import { ServiceMessages } from '@dash/contracts';
import { clientErrorHandler, HttpError, sendError } from '@dash/service-kit';
import { normalizeBase, normalizeOrigin, SERVICES, type GatewayConfig } from './config';
import { isCrossSite } from './csrf';
import { edgeEvent, EdgeLogShipper, markRequestStart } from './edge-logs';
import { healthRoutes } from './routes/health';
import { proxyRoutes } from './routes/proxy';
import { PROJECT_API_PREFIX } from './routes/project-api';
import { ProjectStatusCache } from './project-status';
import { registryRoutes } from './routes/registry';
import { registerShell } from './routes/shell';
import { bearerToken, SessionResolver } from './sessions';

export type { GatewayConfig } from './config';

export type GatewayApp = FastifyInstance & { edgeLogs: EdgeLogShipper; sessions: SessionResolver };

const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

/**
 * Builds the gateway (not listening): the browser's one origin. It serves the shell and
 * /registry.json, proxies /api/<service>/* with a signed identity, refuses cross-site writes,
 * reports /health and ships an edge log event for every request.
 */
export async function buildGatewayApp(config: GatewayConfig): Promise<GatewayApp> {
  const publicOrigins = [config.publicOrigin].flat().map((origin) => normalizeOrigin(origin, 'The public origin'));
  if (publicOrigins.length === 0) throw new Error('At least one public origin is required');
  const allowedOrigins = new Set(publicOrigins);
  const upstreams = Object.fromEntries(
    SERVICES.map((name) => [name, normalizeBase(config.upstreams[name], `The ${name} URL`)]),
  ) as GatewayConfig['upstreams'];

  const app: FastifyInstance = Fastify({ logger: config.logger ?? false, trustProxy: false, return503OnClosing: true, clientErrorHandler });
  const sessions = new SessionResolver(upstreams.platform, config.secret, config.sessionCacheMs ?? 5000);
  const projectStatuses = new ProjectStatusCache(upstreams.platform, config.secret, config.projectStatusCacheMs ?? 2000);
  let lastDropWarning = 0;
  let droppedSinceWarning = 0;
  const edgeLogs = new EdgeLogShipper({
    logsUrl: upstreams.logs,
    secret: config.secret,
    // Half a second plus the live tail's 1 s poll: a request shows in its logs page within 2 s.
    flushIntervalMs: config.edgeLogs?.flushIntervalMs ?? 500,
    batchSize: config.edgeLogs?.batchSize ?? 100,
    maxBuffered: config.edgeLogs?.maxBuffered ?? 10_000,
    onDrop: (count, reason) => {
      // At most one warning per 30 s while the logs service is down, with the count since the last one.
      droppedSinceWarning += count;
      if (Date.now() - lastDropWarning < 30_000) return;
      app.log.warn({ count: droppedSinceWarning, total: edgeLogs.stats.dropped, reason }, 'edge log events dropped');
      lastDropWarning = Date.now();
      droppedSinceWarning = 0;
    },
  });
  app.decorate('edgeLogs', edgeLogs);
  app.decorate('sessions', sessions);

  app.addHook('onRequest', async (request) => markRequestStart(request));
  app.addHook('onRequest', async (request, reply) => {
    // Project APIs take keys, not the dashboard's cookie (never forwarded there): apps call from any origin.
    if (request.url.startsWith(PROJECT_API_PREFIX)) return;
    // A personal access token is a credential the caller sends on purpose, not one the browser adds: the
    // proxy neither uses nor forwards a cookie beside it, so a cross-site page has no ambient authority
    // to borrow (and browsers send `Authorization` cross-origin only after a CORS preflight, never granted
    // on /api). Scripts with a token may therefore call from anywhere, like curl.
    if (request.url.startsWith('/api/') && bearerToken(request.headers)) return;
    if (isCrossSite(request.method, request.headers, allowedOrigins)) return sendError(reply, 403, ServiceMessages.crossSite);
  });
  // The gateway is the one place that sets these, on every reply (proxied ones included).
  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const edge = edgeEvent(request, reply);
    edgeLogs.push(edge);
  });
  app.addHook('onReady', async () => edgeLogs.start());
  app.addHook('onClose', async () => edgeLogs.close());

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (error instanceof HttpError) return sendError(reply, error.statusCode, error.message, error.code);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return sendError(reply, error.statusCode, error.message);
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 500, 'Internal server error');
  });

  await app.register(healthRoutes, { upstreams, timeoutMs: config.healthTimeoutMs ?? 2000 });
  await app.register(registryRoutes, { platformUrl: upstreams.platform, secret: config.secret });
  await app.register(proxyRoutes, {
    upstreams,
    secret: config.secret,
    sessions,
    projectStatuses,
    publicProtocol: new URL(publicOrigins[0]!).protocol === 'https:' ? 'https' : 'http',
  });
  const shell = await registerShell(app, config.shellDir);
  app.setNotFoundHandler((request, reply) => {
    if (shell.fallback(request, reply)) return reply;
    const raw = request.raw.url ?? request.url;
    const queryAt = raw.indexOf('?');
    return sendError(reply, 404, `Route ${request.method} ${queryAt === -1 ? raw : raw.slice(0, queryAt)} not found`);
  });
  return app as GatewayApp;
}
