import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDef } from '@dash/contracts';
import { authRequest, bearerClaims, type AuthRequest, type AuthServiceContext } from '../server/context';
import { AuthError, AuthMessages } from '../server/errors';

export interface HandlerArgs {
  ctx: AuthServiceContext;
  req: AuthRequest;
  request: FastifyRequest;
  reply: FastifyReply;
  // Validated by the route's contract schemas; each handler reads the fields it knows.
  body: Record<string, unknown>;
  query: Record<string, string | undefined>;
  params: Record<string, string>;
}

export interface RouteOptions {
  /** Called from a browser link without a key (`GET /verify`, `/authorize`, `/callback`). */
  keyless?: boolean;
  /** Admin routes: the bearer token must be the service_role key's. */
  admin?: boolean;
}

/**
 * Adds one route of the contract (`authApiRoutes`): its params, query and body validated with the contract's
 * schemas, the project and key resolved before the handler. Errors answer in GoTrue's shape (see the plugin's
 * error handler).
 */
export function registerAuthRoute(app: FastifyInstance, ctx: AuthServiceContext, def: RouteDef, handler: (args: HandlerArgs) => Promise<unknown>, options: RouteOptions = {}): void {
  app.route({
    method: def.method,
    url: def.url,
    schema: { ...(def.params ? { params: def.params } : {}), ...(def.querystring ? { querystring: def.querystring } : {}), ...(def.body ? { body: def.body } : {}) },
    // GoTrue reads a DELETE's body only when there is one (`curl -X DELETE` sends none): no body is `{}`.
    ...(def.method === 'DELETE' && def.body
      ? {
          preValidation: async (request: FastifyRequest) => {
            if (request.body === undefined) request.body = {};
          },
        }
      : {}),
    handler: async (request, reply) => {
      const params = request.params as Record<string, string>;
      const req = await authRequest(ctx, request, params.ref!, options.keyless);
      if (options.admin) {
        const role = bearerClaims(request, req.settings.jwtSecret).role;
        if (role !== 'service_role' && role !== 'supabase_admin') throw new AuthError(403, 'not_admin', AuthMessages.notAdmin);
      }
      const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
      return handler({ ctx, req, request, reply, body, query: (request.query ?? {}) as Record<string, string | undefined>, params });
    },
  });
}
