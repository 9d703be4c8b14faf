import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import replyFrom from '@fastify/reply-from';
import {
  AccountMessages,
  FORWARDED_HEADER,
  IDENTITY_HEADER,
  MFA_PENDING_ROUTES,
  MFA_REQUIRED_CODE,
  SESSION_CHANGING_ROUTES,
  accountRoutes,
  organizationRoutes,
  SESSION_COOKIE,
  projectRole,
  type ServiceName,
} from '@dash/contracts';
import { MAX_DRAINED_BYTES, readCookie, sendError, signForwardedClient } from '@dash/service-kit';
import { DASHBOARD_SERVICES } from '../config';
import { unavailableMessage, type ProjectStatusCache } from '../project-status';
import { awaitingMfa, bearerToken, routeMatcher, routeParamsMatcher, userIdentityHeader, type SessionResolver } from '../sessions';
import { projectApiRoutes } from './project-api';

export interface ProxyOptions {
  upstreams: Record<ServiceName, string>;
  secret: string;
  sessions: SessionResolver;
  projectStatuses: ProjectStatusCache;
  /** `http` or `https`, for x-forwarded-proto. */
  publicProtocol: 'http' | 'https';
}

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];
/** The services whose routes are a project's APIs (`/:ref/...`): a paused or coming-up project's answer 503. */
const PROJECT_SERVICES: readonly ServiceName[] = ['pg-meta', 'storage'];
const REF_SEGMENT = /^\/([a-z0-9-]{1,64})(?:\/|$)/;
/** Platform writes that change a project's status or who belongs to it: `/projects` and `/projects/{ref}/...`. */
const PROJECT_WRITE = /^\/projects(?:\/([a-z0-9-]{1,64}))?(?:[/?]|$)/;
const isService = (name: string): name is ServiceName => (DASHBOARD_SERVICES as readonly string[]).includes(name);

export type ProxyTarget =
  | { kind: 'forward'; service: ServiceName; path: string }
  | { kind: 'error'; status: number; message: string };

/**
 * Where `/api/<service>/<path>` goes. The path is forwarded as the client sent it (still encoded);
 * its decoded form decides: `internal/...` never leaves the gateway, and dot segments are refused.
 */
export function proxyTarget(method: string, rawPath: string): ProxyTarget {
  const match = /^\/api\/([^/]*)(\/.*)?$/.exec(rawPath);
  const service = match?.[1] ?? '';
  if (!isService(service)) return { kind: 'error', status: 404, message: `Unknown service "${service.slice(0, 64)}"` };
  const path = match?.[2] ?? '/';
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return { kind: 'error', status: 400, message: 'The URL is not correctly encoded' };
  }
  const segments = decoded.split(/[/\\]/).filter(Boolean);
  if (segments.some((s) => s === '.' || s === '..')) return { kind: 'error', status: 400, message: 'The URL must not contain dot segments' };
  if (segments[0]?.toLowerCase() === 'internal') {
    // Service-to-service routes are never reachable from outside; answer as if they did not exist.
    return { kind: 'error', status: 404, message: `Route ${method} ${rawPath} not found` };
  }
  return { kind: 'forward', service, path };
}

/**
 * `/api/<service>/*`: streams requests and replies between the browser and the services. Bodies are
 * never parsed or buffered here; the session cookie becomes a freshly signed identity header.
 */
export async function proxyRoutes(app: FastifyInstance, options: ProxyOptions): Promise<void> {
  // Every body, of any type and size, passes through as a stream (see forwardedBody).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, forwardedBody(payload as IncomingMessage)));
  await app.register(replyFrom, { disableRequestLogging: true });

  const changesSession = routeMatcher(SESSION_CHANGING_ROUTES);
  const allowedAwaitingMfa = routeMatcher(MFA_PENDING_ROUTES);
  const changedSessions = new WeakMap<FastifyRequest, string>();
  const revokesToken = routeMatcher([accountRoutes.revokeAccessToken]);
  // A member removed or given another role: their rights change on their next request, not when the cache expires.
  const changesMember = routeParamsMatcher([organizationRoutes.removeMember, organizationRoutes.updateMember]);
  const rightsChanged = new WeakMap<FastifyRequest, string>();
  const projectWrites = new WeakMap<FastifyRequest, { token: string | undefined; ref: string | undefined }>();
  app.addHook('onResponse', async (request, reply) => {
    // Drop the cached session once the platform has deleted it or changed its assurance level.
    const token = changedSessions.get(request);
    if (token) options.sessions.invalidate(token);
    // A revoked token, a removed member: the change holds from the next request, not when cache entries expire.
    const user = rightsChanged.get(request);
    if (user && reply.statusCode < 400) options.sessions.forgetUser(user);
    // A project created, paused, restored or deleted: the writer's next request sees it at once.
    const write = projectWrites.get(request);
    if (write && reply.statusCode < 400) {
      if (write.token) options.sessions.invalidate(write.token);
      if (write.ref) options.projectStatuses.invalidate(write.ref);
    }
  });

  app.route({
    method: METHODS,
    url: '/api/*',
    handler: async (request, reply) => {
      const raw = request.raw.url ?? request.url;
      const queryAt = raw.indexOf('?');
      const target = proxyTarget(request.method, queryAt === -1 ? raw : raw.slice(0, queryAt));
      if (target.kind === 'error') return sendError(reply, target.status, target.message);
      const { service, path } = target;

      // A personal access token stands alone: a cookie beside it is neither used nor forwarded.
      const bearer = bearerToken(request.headers);
      const token = bearer ? undefined : readCookie(request.headers.cookie, SESSION_COOKIE);
      // Throws HttpError(502) when the platform fails.
      const session = bearer ? await options.sessions.resolve(bearer, 'access_token') : token ? await options.sessions.resolve(token) : null;
      if (bearer && !session) return sendError(reply, 401, AccountMessages.invalidAccessToken);
      // Until its MFA code is in, a session reaches only what the MFA page needs, in every service.
      if (session && awaitingMfa(session) && !(service === 'platform' && allowedAwaitingMfa(request.method, path))) {
        return sendError(reply, 401, AccountMessages.mfaRequired, MFA_REQUIRED_CODE);
      }
      const identity = session ? userIdentityHeader(options.secret, session, bearer ? 'access_token' : 'session') : undefined;
      if (token && service === 'platform' && changesSession(request.method, path)) {
        options.sessions.invalidate(token);
        changedSessions.set(request, token);
      }
      if (session && service === 'platform' && revokesToken(request.method, path)) rightsChanged.set(request, session.user.id);
      const member = session && service === 'platform' ? changesMember(request.method, path) : null;
      if (member?.userId) rightsChanged.set(request, decodeURIComponent(member.userId));
      const projectWrite = service === 'platform' && request.method !== 'GET' ? PROJECT_WRITE.exec(path) : null;
      if (projectWrite) projectWrites.set(request, { token, ref: projectWrite[1] });
      // A member's call to a project that is paused or coming up stops here; anyone else learns nothing of it.
      const ref = PROJECT_SERVICES.includes(service) ? REF_SEGMENT.exec(path)?.[1] : undefined;
      if (ref && session && projectRole(session.projects, ref)) {
        const unavailable = unavailableMessage(ref, await options.projectStatuses.status(ref));
        if (unavailable) return sendError(reply, 503, unavailable);
      }

      return reply.from(`${options.upstreams[service]}${path}`, {
        // An upstream's 503 is its answer: do not retry it (reply-from retries GETs on 503 by default).
        retryDelay: () => null,
        rewriteRequestHeaders: (req, headers) => {
          const out = forwardHeaders(req, headers as IncomingHttpHeaders, service, identity, options.publicProtocol, options.secret);
          // Services get the identity the token resolved to, never the secret itself.
          if (bearer) {
            delete out.authorization;
            delete out.cookie;
          }
          return out;
        },
        onError: (replyToSend, { error }) => upstreamFailed(replyToSend as FastifyReply, service, error),
        onResponse: (req, replyToSend, res) => answerAfterBody(req.raw as IncomingMessage, req.body, replyToSend as FastifyReply, res.stream),
      });
    },
  });

  await projectApiRoutes(app, {
    upstreams: { storage: options.upstreams.storage, logs: options.upstreams.logs, rest: options.upstreams.rest, graphql: options.upstreams.graphql, auth: options.upstreams.auth },
    publicProtocol: options.publicProtocol,
    secret: options.secret,
    projectStatuses: options.projectStatuses,
  });
}

/** The headers a service receives: no client-made identity or forwarding headers, ours instead. */
export function forwardHeaders(
  request: Pick<FastifyRequest, 'ip' | 'headers'>,
  headers: IncomingHttpHeaders,
  service: ServiceName,
  identity: string | undefined,
  protocol: 'http' | 'https',
  secret: string,
): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === IDENTITY_HEADER || name === FORWARDED_HEADER || name.startsWith('x-forwarded-') || name === 'forwarded') continue;
    // The gateway already answered a client's Expect (Node sends "100 Continue"); the body it forwards
    // is on its way, and undici refuses requests that carry the header.
    if (name === 'expect') continue;
    // Only the platform needs the session cookie (sign-out); other services get the signed identity.
    if (name === 'cookie' && service !== 'platform') continue;
    out[name] = value;
  }
  out['x-forwarded-for'] = request.ip;
  out['x-forwarded-proto'] = protocol;
  out[FORWARDED_HEADER] = signForwardedClient(secret, { ip: request.ip, proto: protocol });
  if (typeof request.headers.host === 'string') out['x-forwarded-host'] = request.headers.host;
  if (identity) out[IDENTITY_HEADER] = identity;
  return out;
}

/**
 * The body the gateway sends on to a service: a stream of its own that reads the client's only as the
 * service's HTTP client (undici) reads it. Undici destroys the stream it was given when the service
 * answers before reading all of it, which must not be the client's connection (answerAfterBody then
 * reads the rest, so the client gets the answer); and a body nobody reads (the gateway answers itself)
 * is left to Node, which drops it so the connection can carry the next request.
 */
function forwardedBody(raw: IncomingMessage): Readable {
  raw.pause();
  const forward = (chunk: Buffer) => {
    if (!body.push(chunk)) raw.pause();
  };
  const body: Readable = new Readable({
    read: () => void raw.resume(),
    destroy: (error, callback) => {
      raw.off('data', forward);
      callback(error);
    },
  });
  // The body fails when the client goes away. Until the service's HTTP client takes it (its own listener
  // then learns of it), nobody else listens: the gateway may still be checking the caller's credential
  // or project, and an 'error' event without a listener would end the process.
  body.on('error', () => {});
  raw.on('data', forward);
  raw.once('end', () => body.push(null));
  raw.once('error', (error) => body.destroy(error));
  raw.once('close', () => {
    if (!raw.complete) body.destroy(new Error('The client closed its connection while sending the body'));
  });
  return body;
}

/**
 * Sends a service's answer once the client's request body has all arrived (read on by the service, or
 * dropped here once the service no longer reads it). A service refusing an upload early (413, 409, 403)
 * answers while the client is still sending; answering and closing then makes the client fail with EPIPE
 * or a reset instead of reading the answer, and a keep-alive client can go on using the connection once
 * the body is in. A client still sending MAX_DRAINED_BYTES after the answer is ready is cut off.
 */
export function answerAfterBody(raw: IncomingMessage, body: unknown, reply: FastifyReply, answerStream: Readable): void {
  if (raw.complete || raw.destroyed) {
    void reply.send(answerStream);
    return;
  }
  let drained = 0;
  let answered = false;
  const answer = () => {
    if (answered) return;
    answered = true;
    raw.off('data', count);
    if (raw.complete) reply.removeHeader('connection');
    void reply.send(answerStream);
  };
  const count = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > MAX_DRAINED_BYTES) {
      answer();
      raw.destroy();
    }
  };
  raw.on('data', count);
  raw.once('end', answer);
  raw.once('close', answer);
  // Once the service's HTTP client stops taking the body, the rest is read and dropped here.
  const dropRest = () => void raw.resume();
  const forwarded = body instanceof Readable ? body : null;
  if (!forwarded || forwarded.destroyed) dropRest();
  else forwarded.once('close', dropRest);
}

export function upstreamFailed(reply: FastifyReply, service: ServiceName, error: Error): void {
  const status = (error as { statusCode?: number }).statusCode;
  if (status === 504) {
    void sendError(reply, 504, `The ${service} service did not answer in time`);
    return;
  }
  reply.request.log.warn({ err: error, service }, 'upstream failed');
  void sendError(reply, 502, `The ${service} service is unavailable`);
}
