import type { FastifyInstance } from 'fastify';
import { restRoutes, type RouteDef } from '@dash/contracts';
import { PostgrestError } from '../query/errors';
import { sendPostgrestError } from '../server/responses';
import { serveApiRequest, type RestContext } from './context';
import { openApiDocument } from '../openapi/document';
import { negotiate } from '../server/request';
import { readRelation } from './read';
import { callFunction } from './rpc';
import { writeRelation } from './write';

/**
 * The data API's routes under `/:ref/v1` (the gateway serves them as `/p/:ref/rest/v1`): a relation's rows
 * at `/:relation`, functions at `/rpc/:function`. Bodies are read as text: a write's JSON goes to the
 * database as one parameter, and PostgREST's errors (not Fastify's) answer a body that does not parse.
 */
export async function dataApiRoutes(app: FastifyInstance, { ctx }: { ctx: RestContext }): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  // What fails before a handler (a path over the contract's limits, a body too large) answers in PostgREST's shape too.
  app.setErrorHandler((error: Error & { validation?: unknown; code?: string; statusCode?: number }, request, reply) => {
    if (error.validation) return sendPostgrestError(reply, new PostgrestError(400, 'PGRST100', error.message));
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendPostgrestError(reply, new PostgrestError(413, 'PGRST413', 'The request body is too large'));
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return sendPostgrestError(reply, new PostgrestError(error.statusCode, `PGRST${error.statusCode}`, error.message));
    request.log.error({ err: error }, 'unhandled data API error');
    return sendPostgrestError(reply, new PostgrestError(500, 'PGRST500', 'Internal server error'));
  });
  // Params and query strings are validated with the contract's schemas (`restRoutes`); the grammar inside them is the parsers'.
  const schema = (def: RouteDef) => ({ params: def.params, querystring: def.querystring });
  // Every request is a postgrest_logs event already: the process log keeps their warnings and errors, not two
  // info lines per request (a synchronous write each, more CPU than the request's own work in the service).
  const logLevel = 'warn';

  // The root: the OpenAPI document of the request's schema (Accept-Profile picks another exposed one).
  app.route({
    method: ['GET', 'HEAD'],
    url: '/:ref/v1/',
    schema: schema(restRoutes.openApi),
    logLevel,
    handler: (request, reply) =>
      serveApiRequest(ctx, request, reply, '/', async (api) => {
        const wanted = request.headers.accept?.includes('application/openapi+json') ? 'json' : negotiate(request.headers.accept, ['json']).format;
        const forwardedHost = request.headers['x-forwarded-host'];
        const document = openApiDocument(api.cache, api.schema, {
          host: (Array.isArray(forwardedHost) ? forwardedHost[0] : forwardedHost) ?? request.headers.host ?? 'localhost',
          basePath: `/p/${api.ref}/rest/v1`,
          scheme: request.forwardedClient?.proto ?? 'http',
        });
        reply.type(wanted === 'json' ? 'application/openapi+json; charset=utf-8' : 'application/json; charset=utf-8');
        return request.method === 'HEAD' ? reply.send() : reply.send(JSON.stringify(document));
      }),
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/:ref/v1/:relation',
    schema: schema(restRoutes.readRows),
    logLevel,
    handler: (request, reply) => {
      const { relation } = request.params as { relation: string };
      return serveApiRequest(ctx, request, reply, `/${relation}`, (api) => readRelation(ctx, request, reply, api, relation));
    },
  });

  app.route({
    method: ['POST', 'PATCH', 'PUT', 'DELETE'],
    url: '/:ref/v1/:relation',
    schema: schema(restRoutes.insertRows),
    logLevel,
    handler: (request, reply) => {
      const { relation } = request.params as { relation: string };
      return serveApiRequest(ctx, request, reply, `/${relation}`, (api) => writeRelation(ctx, request, reply, api, relation));
    },
  });

  app.route({
    method: ['GET', 'HEAD', 'POST'],
    url: '/:ref/v1/rpc/:function',
    schema: schema(restRoutes.callFunction),
    logLevel,
    handler: (request, reply) => {
      const { function: name } = request.params as { function: string };
      return serveApiRequest(ctx, request, reply, `/rpc/${name}`, (api) => callFunction(ctx, request, reply, api, name));
    },
  });
}
