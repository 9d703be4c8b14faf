import type { Duplex } from 'node:stream';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import pg from 'pg';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ErrorReply,
  FORWARDED_HEADER,
  healthMessage,
  LivenessReply,
  ServiceHealth,
  IDENTITY_HEADER,
  ServiceMessages,
  projectRole,
  roleHasPermission,
  type AccessRule,
  type FeatureFlag,
  type FeatureFlags,
  type ForwardedClient,
  type Identity,
  type RouteBody,
  type RouteDef,
  type RouteParams,
  type RouteQuery,
  type RouteReply,
} from '@dash/contracts';
import { HttpError, statusText } from './errors';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE, databaseUnavailable, isConnectionFailure } from './connection-errors';
import { verifyForwardedClient, verifyIdentity } from './identity';
import type { JwtClaims } from './jwt';
import { redactedUrl } from './log-redaction';
import { isDataException, isUniqueViolation } from './pg-errors';

/** The caller of a `project_key` route, as the service's verifier found it in the request's token. */
export interface ProjectKeyCaller {
  /** The database role the token names (`anon`, `authenticated`, `service_role`). */
  role: string;
  /** The token's claims, given to the database as `request.jwt.claims`. */
  claims: JwtClaims;
}

declare module 'fastify' {
  interface FastifyRequest {
    identity: Identity | null;
    projectKeyCaller: ProjectKeyCaller | null;
    /** Where the request came from, as the gateway signed it; null when it did not come through the gateway. */
    forwardedClient: ForwardedClient | null;
  }
  interface FastifyContextConfig {
    access?: AccessRule;
    featureFlag?: FeatureFlag;
  }
}

export interface ServiceOptions {
  /** Service name, used in logs. */
  name: string;
  /** Shared secret that signs identities between the gateway and the services. */
  secret: string;
  logger?: boolean | FastifyBaseLogger;
  bodyLimit?: number;
  /** Longest path parameter the router matches (Fastify's default is 100; longer is a 414). */
  maxParamLength?: number;
  /**
   * What the service needs to serve requests, each checked by `GET /health` (readiness): a name
   * (`postgres`, `platform`) and a check that rejects when it is unavailable. None: always ready.
   */
  dependencies?: Record<string, () => Promise<unknown>>;
  /**
   * Verifies the token of a `project_key` route (throws an HttpError to refuse). Required before such
   * a route is added.
   */
  verifyProjectKey?: (request: FastifyRequest) => Promise<ProjectKeyCaller>;
  /**
   * The flags of a route's project, for routes with a `featureFlag`. Without it every such route is
   * refused, as a flag that cannot be read counts as off.
   */
  featureFlags?: FeatureFlagResolver;
}

export type ServiceApp = FastifyInstance;

/** The feature flags of a project's organization (see `platformFeatureFlags`). */
export type FeatureFlagResolver = (ref: string) => Promise<FeatureFlags>;

/**
 * A Fastify app with the platform's conventions: identities are verified on every request, each
 * route's access rule is enforced before its input is validated, and every error leaves as
 * `{ statusCode, error, message }` with a 4xx for the client's mistakes.
 */
export function createServiceApp(options: ServiceOptions): ServiceApp {
  const app = Fastify({
    // Request logs keep the path and the query without credentials (a mailed link's token, a key in `?apikey=`).
    logger: options.logger === true ? { serializers: { req: (req: { method: string; url: string; hostname?: string; ip?: string }) => ({ method: req.method, url: redactedUrl(req.url), host: req.hostname, remoteAddress: req.ip }) } } : (options.logger ?? false),
    bodyLimit: options.bodyLimit ?? 2 * 1024 * 1024,
    routerOptions: { maxParamLength: options.maxParamLength ?? 100 },
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Query strings and path params arrive as text, so they are coerced to the schema's types; bodies are
  // JSON and are validated as sent (coercion would turn a `null` size limit into 0).
  const textParts = addFormats(new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: false, strict: false }));
  const jsonParts = addFormats(new Ajv({ coerceTypes: false, useDefaults: true, removeAdditional: false, strict: false }));
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? jsonParts : textParts).compile(schema));

  app.addSchema(ErrorReply);
  app.decorateRequest('identity', null);
  app.decorateRequest('projectKeyCaller', null);
  app.decorateRequest('forwardedClient', null);
  const verifyProjectKey = options.verifyProjectKey;
  if (verifyProjectKey) app.decorate(PROJECT_KEY_VERIFIER, verifyProjectKey);
  app.addHook('onRequest', async (request) => {
    const header = request.headers[IDENTITY_HEADER];
    request.identity = verifyIdentity(options.secret, Array.isArray(header) ? header[0] : header);
    const forwarded = request.headers[FORWARDED_HEADER];
    request.forwardedClient = verifyForwardedClient(options.secret, Array.isArray(forwarded) ? forwarded[0] : forwarded);
  });
  // preValidation: the caller learns nothing about a route's input rules before access is granted.
  app.addHook('preValidation', async (request) => {
    const rule = request.routeOptions.config.access;
    if (rule?.kind === 'project_key') request.projectKeyCaller = await verifyProjectKey!(request);
    else if (rule) enforceAccess(rule, request);
    const flag = request.routeOptions.config.featureFlag;
    if (flag) await enforceFeatureFlag(flag, request, options.featureFlags);
  });

  app.setErrorHandler((error: Error & { statusCode?: number; validation?: unknown; code?: string }, request, reply) => {
    if (error.validation) return sendError(reply, 400, error.message);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return refuseLargeBody(request, reply);
    if (error instanceof HttpError) return sendError(reply, error.statusCode, error.message, error.code, error.details);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, error.statusCode, error.message, error.code);
    }
    // SQLSTATE class 22, data exception: a value the client sent that Postgres cannot hold (NUL in text,
    // a year 0, a number out of range). The client's mistake, whichever query met it.
    if (error instanceof pg.DatabaseError && isDataException(error)) return sendError(reply, 400, error.message, error.code);
    // SQLSTATE 23505, unique violation: what the request would make exists already, typically made by a
    // request running at the same time, whose row the handler's own check could not see yet.
    if (error instanceof pg.DatabaseError && isUniqueViolation(error)) return sendError(reply, 409, error.message, error.code);
    // The database connection failed (Postgres restarting, say): a 503 the client may retry, whichever
    // query met it. Pools drop the broken clients and connect again on the next request.
    if (isConnectionFailure(error)) {
      request.log.warn({ err: error }, 'database connection failed');
      const unavailable = databaseUnavailable();
      return sendError(reply, unavailable.statusCode, unavailable.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 500, 'Internal server error');
  });
  healthRoutes(app, options.name, options.dependencies ?? {});
  app.setNotFoundHandler((request, reply) => sendError(reply, 404, `Route ${request.method} ${request.url} not found`));
  return app;
}

/** How long a dependency check of `/health` may take before it counts as down. */
export const DEPENDENCY_CHECK_TIMEOUT_MS = 1500;

/** `/health/live` (the process answers) and `/health` (readiness: every dependency answers; 503 naming those that do not). */
function healthRoutes(app: FastifyInstance, service: string, dependencies: Record<string, () => Promise<unknown>>): void {
  app.get('/health/live', { schema: { response: { 200: LivenessReply } } }, async () => ({ status: 'ok' as const, service }));
  app.get('/health', { schema: { response: { 200: ServiceHealth, 503: ServiceHealth } } }, async (_request, reply) => {
    const results = await Promise.all(
      Object.entries(dependencies).map(async ([name, check]) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), DEPENDENCY_CHECK_TIMEOUT_MS)));
        const up = await Promise.race([check(), timeout]).then(() => true, () => false);
        clearTimeout(timer);
        return [name, up ? 'up' : 'down'] as const;
      }),
    );
    const missing = results.filter(([, status]) => status === 'down').map(([name]) => name);
    const body: ServiceHealth = { status: missing.length ? 'unavailable' : 'ok', service, dependencies: Object.fromEntries(results), missing };
    if (missing.length) body.message = healthMessage(missing);
    return reply.status(missing.length ? 503 : 200).header('cache-control', 'no-store').send(body);
  });
}

/**
 * A request Node's HTTP parser refuses (headers or URL over 16 KB, a malformed request line): the
 * error reply, with `Connection: close` so no client sends its next request on a socket about to
 * close (Fastify's default handler leaves it out, and a keep-alive client then gets ECONNRESET on an
 * unrelated request). The rest of what the client sends is read and dropped until it closes, so
 * closing does not reset the reply away before the client reads it.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const message = status === 431 ? ServiceMessages.headersTooLarge : status === 408 ? ServiceMessages.requestTimeout : ServiceMessages.malformedRequest;
  const body = JSON.stringify({ statusCode: status, error: statusText(status), message });
  socket.on('error', () => {});
  socket.resume();
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${statusText(status)}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS).unref();
}

/** How long a refused client may take to read the refusal before its socket is destroyed. */
const CLIENT_ERROR_LINGER_MS = 5_000;

/** Bodies larger than this are not read to the end before a 413: the connection is closed instead. */
export const MAX_DRAINED_BYTES = 64 * 1024 * 1024;

/**
 * A body over the limit gets a 413 only once the rest of it has been read. Answering early and closing
 * the connection under a client (the gateway) still sending makes it fail with EPIPE and lose the answer.
 * `send` writes the 413 (a service with its own error dialect, as auth's GoTrue bodies, passes its own).
 */
export function refuseLargeBody(request: FastifyRequest, reply: FastifyReply, send: () => unknown = () => sendError(reply, 413, ServiceMessages.bodyTooLarge)): FastifyReply {
  const raw = request.raw;
  let drained = 0;
  let answered = false;
  const answer = () => {
    if (answered) return;
    answered = true;
    void send();
  };
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > MAX_DRAINED_BYTES) {
      reply.header('connection', 'close');
      answer();
      raw.destroy();
    }
  });
  raw.once('end', answer);
  raw.once('error', answer);
  if (raw.readableEnded) answer();
  else raw.resume();
  return reply;
}

export function sendError(reply: FastifyReply, status: number, message: string, code?: string, details?: HttpError['details']) {
  // A lost database connection is a passing state (a restart): say when to try again. Other 503s (a
  // paused project) are not, and get no Retry-After.
  if (status === 503 && message === DATABASE_UNAVAILABLE && !reply.hasHeader('retry-after')) reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
  const body: ErrorReply = { statusCode: status, error: statusText(status), message, ...(code ? { code } : {}), ...details };
  return reply.status(status).type('application/json').send(body);
}

const PROJECT_KEY_VERIFIER = 'verifyProjectKey';

function enforceAccess(rule: Exclude<AccessRule, { kind: 'project_key' }>, request: FastifyRequest): void {
  const identity = request.identity;
  switch (rule.kind) {
    case 'public':
      return;
    case 'internal':
      if (identity?.kind !== 'service') throw new HttpError(identity ? 403 : 401, ServiceMessages.internalOnly);
      return;
    case 'signed_in':
      if (identity?.kind !== 'user') throw new HttpError(401, ServiceMessages.signInRequired);
      if (rule.sessionOnly && identity.credential === 'access_token') throw new HttpError(403, ServiceMessages.sessionOnly);
      return;
    case 'project': {
      if (identity?.kind !== 'user') throw new HttpError(401, ServiceMessages.signInRequired);
      const ref = (request.params as { ref?: string } | undefined)?.ref;
      const role = ref === undefined ? undefined : projectRole(identity.projects, ref);
      // A project the caller is not a member of does not exist for them.
      if (!role) throw new HttpError(404, ServiceMessages.projectNotFound);
      if (!roleHasPermission(role, rule.permission)) throw new HttpError(403, ServiceMessages.forbidden);
      return;
    }
  }
}

/** A flagged route's project must have the flag on; its ref is in the path (checked when the route is added). */
async function enforceFeatureFlag(flag: FeatureFlag, request: FastifyRequest, resolve: FeatureFlagResolver | undefined): Promise<void> {
  const { ref } = request.params as { ref: string };
  if (!resolve || !(await resolve(ref))[flag]) throw new HttpError(403, ServiceMessages.featureDisabled(flag));
}

/** What a route handler receives: the parsed, validated parts typed from the contract. */
export interface RouteContext<D extends RouteDef> {
  params: RouteParams<D>;
  query: RouteQuery<D>;
  body: RouteBody<D>;
  identity: Identity | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Registers a contract route: schemas, access rule and success status all come from `def`. */
export function addRoute<D extends RouteDef>(
  app: ServiceApp,
  def: D,
  handler: (ctx: RouteContext<D>) => Promise<RouteReply<D>>,
): void {
  const status = def.status ?? 200;
  if (def.access.kind === 'project_key' && !app.hasDecorator(PROJECT_KEY_VERIFIER)) {
    throw new Error(`${def.method} ${def.url} needs project keys verified: give createServiceApp a verifyProjectKey`);
  }
  if (def.featureFlag && !/\/:ref(\/|$)/.test(def.url)) throw new Error(`${def.method} ${def.url} has a feature flag but no :ref: flags are an organization's`);
  app.route({
    method: def.method,
    url: def.url,
    config: { access: def.access, featureFlag: def.featureFlag },
    schema: {
      ...(def.params ? { params: def.params } : {}),
      ...(def.querystring ? { querystring: def.querystring } : {}),
      ...(def.body ? { body: def.body } : {}),
      response: { [status]: def.response, '4xx': { $ref: 'ErrorReply#' }, '5xx': { $ref: 'ErrorReply#' } },
    },
    handler: async (request, reply) => {
      const result = await handler({
        params: request.params as RouteParams<D>,
        query: request.query as RouteQuery<D>,
        body: request.body as RouteBody<D>,
        identity: request.identity,
        request,
        reply,
      });
      reply.status(status);
      return result;
    },
  });
}

/** The caller of a `project_key` route (verified before the handler). */
export function projectKeyCallerOf(request: FastifyRequest): ProjectKeyCaller {
  if (!request.projectKeyCaller) throw new HttpError(401, ServiceMessages.signInRequired);
  return request.projectKeyCaller;
}

/** The identity of a route whose access rule is `signed_in` or `project` (checked before the handler). */
export function userOf(identity: Identity | null) {
  if (identity?.kind !== 'user') throw new HttpError(401, ServiceMessages.signInRequired);
  return identity;
}
