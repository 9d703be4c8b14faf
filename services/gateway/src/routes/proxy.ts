import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import replyFrom from '@fastify/reply-from';
import { IDENTITY_HEADER, SESSION_COOKIE, platformRoutes, type ServiceName } from '@dash/contracts';
import { readCookie, sendError } from '@dash/service-kit';
import { SERVICES } from '../config';
import { userIdentityHeader, type SessionResolver } from '../sessions';
import { projectApiRoutes } from './project-api';

export interface ProxyOptions {
  upstreams: Record<ServiceName, string>;
  secret: string;
  sessions: SessionResolver;
  /** `http` or `https`, for x-forwarded-proto. */
  publicProtocol: string;
}

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];
const isService = (name: string): name is ServiceName => (SERVICES as readonly string[]).includes(name);

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
  // Every body, of any type and size, passes through as the raw request stream.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  await app.register(replyFrom, { disableRequestLogging: true });

  const signOutPath = platformRoutes.signOut.url;
  const signedOut = new WeakMap<FastifyRequest, string>();
  app.addHook('onResponse', async (request) => {
    // Drop the cached session once the platform has deleted it.
    const token = signedOut.get(request);
    if (token) options.sessions.invalidate(token);
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

      const token = readCookie(request.headers.cookie, SESSION_COOKIE);
      const session = token ? await options.sessions.resolve(token) : null; // HttpError(502) when the platform fails
      const identity = session ? userIdentityHeader(options.secret, session) : undefined;
      if (token && service === 'platform' && path === signOutPath) {
        options.sessions.invalidate(token);
        signedOut.set(request, token);
      }

      return reply.from(`${options.upstreams[service]}${path}`, {
        // An upstream's 503 is its answer: do not retry it (reply-from retries GETs on 503 by default).
        retryDelay: () => null,
        rewriteRequestHeaders: (req, headers) => forwardHeaders(req, headers as IncomingHttpHeaders, service, identity, options.publicProtocol),
        onError: (replyToSend, { error }) => upstreamFailed(replyToSend as FastifyReply, service, error),
      });
    },
  });

  await projectApiRoutes(app, { storageUrl: options.upstreams.storage, publicProtocol: options.publicProtocol });
}

/** The headers a service receives: no client-made identity or forwarding headers, ours instead. */
export function forwardHeaders(
  request: Pick<FastifyRequest, 'ip' | 'headers'>,
  headers: IncomingHttpHeaders,
  service: ServiceName,
  identity: string | undefined,
  protocol: string,
): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === IDENTITY_HEADER || name.startsWith('x-forwarded-') || name === 'forwarded') continue;
    // The gateway already answered a client's Expect (Node sends "100 Continue"); the body it forwards
    // is on its way, and undici refuses requests that carry the header.
    if (name === 'expect') continue;
    // Only the platform needs the session cookie (sign-out); other services get the signed identity.
    if (name === 'cookie' && service !== 'platform') continue;
    out[name] = value;
  }
  out['x-forwarded-for'] = request.ip;
  out['x-forwarded-proto'] = protocol;
  if (typeof request.headers.host === 'string') out['x-forwarded-host'] = request.headers.host;
  if (identity) out[IDENTITY_HEADER] = identity;
  return out;
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
