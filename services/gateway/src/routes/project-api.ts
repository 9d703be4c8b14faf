import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServiceName } from '@dash/contracts';
import { sendError } from '@dash/service-kit';
import { unavailableMessage, type ProjectStatusCache } from '../project-status';
import { answerAfterBody, forwardHeaders, upstreamFailed } from './proxy';

export interface ProjectApiOptions {
  upstreams: Record<ProjectApiService, string>;
  publicProtocol: 'http' | 'https';
  /** Signs where each request came from (`ForwardedClient`). */
  secret: string;
  projectStatuses: ProjectStatusCache;
}

/**
 * The project APIs apps call, under the dashboard's origin: `/p/{ref}/storage/v1` is Supabase's
 * `/storage/v1`; `/p/{ref}/analytics/v1` takes events for the project's collections (logs service);
 * `/p/{ref}/rest/v1` is the data API (PostgREST's `/rest/v1`, rest service), `/p/{ref}/graphql/v1` its GraphQL
 * endpoint (graphql service), `/p/{ref}/auth/v1` the auth API (GoTrue's `/auth/v1`, auth service).
 */
export const PROJECT_API_PREFIX = '/p/';
const PROJECT_APIS = { storage: 'storage', analytics: 'logs', rest: 'rest', graphql: 'graphql', auth: 'auth' } as const satisfies Record<string, ServiceName>;
type ProjectApiService = (typeof PROJECT_APIS)[keyof typeof PROJECT_APIS];

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

/**
 * Apps call from any origin with a project key in `Authorization`/`apikey`, never with the dashboard's
 * cookie (which is not forwarded), so any origin may call and read, as with a hosted project's API.
 */
const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': METHODS.join(', '),
  'access-control-allow-headers': 'authorization, apikey, content-type, cache-control, x-upsert, x-client-info, x-metadata, range, range-unit, content-length, prefer, accept-profile, content-profile, x-supabase-api-version',
  'access-control-expose-headers': 'content-length, content-range, content-type, etag, last-modified, cache-control, content-disposition, location, preference-applied, content-location, x-supabase-api-version, x-total-count, link',
  'access-control-max-age': '86400',
};

export type ProjectApiTarget =
  | { kind: 'forward'; service: ProjectApiService; ref: string; path: string }
  | { kind: 'error'; status: number; message: string };

/** Where `/p/{ref}/<api>/v1/<rest>` goes in the api's service: `/{ref}/v1/<rest>`, still encoded. */
export function projectApiTarget(rawPath: string): ProjectApiTarget {
  const match = /^\/p\/([^/]*)\/([^/]*)\/v1(\/.*)?$/.exec(rawPath);
  if (!match) return { kind: 'error', status: 404, message: `Route ${rawPath.slice(0, 200)} not found` };
  const [, ref = '', api = '', rest = '/'] = match;
  if (!/^[a-z0-9-]{1,64}$/.test(ref)) return { kind: 'error', status: 404, message: 'Project not found' };
  if (!Object.hasOwn(PROJECT_APIS, api)) return { kind: 'error', status: 404, message: `Unknown project API "${api.slice(0, 64)}"` };
  const service = PROJECT_APIS[api as keyof typeof PROJECT_APIS];
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return { kind: 'error', status: 400, message: 'The URL is not correctly encoded' };
  }
  // Object names never contain dot segments (the storage service refuses them too): refuse early.
  if (decoded.split(/[/\\]/).some((s) => s === '.' || s === '..')) return { kind: 'error', status: 400, message: 'The URL must not contain dot segments' };
  return { kind: 'forward', service, ref, path: `/${ref}/v1${rest}` };
}

/**
 * `/p/{ref}/<api>/v1/*`: streams to and from the api's service, with no dashboard identity. Added
 * by `proxyRoutes`, whose context passes bodies through unparsed and has reply-from.
 */
export async function projectApiRoutes(app: FastifyInstance, options: ProjectApiOptions): Promise<void> {
  const cors = (reply: FastifyReply) => {
    for (const [name, value] of Object.entries(CORS_HEADERS)) reply.header(name, value);
  };
  app.route({
    method: METHODS,
    url: `${PROJECT_API_PREFIX}*`,
    // Apps' calls are many and each is an edge event already: the process log keeps their warnings and
    // errors, not two info lines per request (a synchronous write each, the largest CPU cost of the hop).
    logLevel: 'warn',
    handler: async (request, reply) => {
      cors(reply);
      if (request.method === 'OPTIONS') return reply.status(204).send();
      const raw = request.raw.url ?? request.url;
      const queryAt = raw.indexOf('?');
      const target = projectApiTarget(queryAt === -1 ? raw : raw.slice(0, queryAt));
      if (target.kind === 'error') return sendError(reply, target.status, target.message);
      // A paused or coming-up project's API answers 503, as a hosted project's does (refs are public here).
      const unavailable = unavailableMessage(target.ref, await options.projectStatuses.status(target.ref));
      if (unavailable) return sendError(reply, 503, unavailable);
      const { service } = target;
      return reply.from(`${options.upstreams[service]}${target.path}`, {
        retryDelay: () => null,
        rewriteRequestHeaders: (req, headers) => forwardHeaders(req, headers as IncomingHttpHeaders, service, undefined, options.publicProtocol, options.secret),
        onError: (replyToSend, { error }) => upstreamFailed(replyToSend as FastifyReply, service, error),
        onResponse: (req, replyToSend, res) => answerAfterBody(req.raw as IncomingMessage, req.body, replyToSend as FastifyReply, res.stream),
      });
    },
  });
}
