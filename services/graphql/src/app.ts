import './node20';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { grafast } from 'postgraphile/grafast';
import { RefParams } from '@dash/contracts';
import { createServiceApp, quoteIdent, type ConnectionResolver, type DataApiSettingsResolver, type LogShipper, type ProjectDataApiSettings, type ServiceApp } from '@dash/service-kit';
import { graphqlCaller, TokenError, type GraphqlCaller } from './caller';
import { GraphqlEngines } from './engine';
import { registerGraphqlLogs } from './logs';

export interface GraphqlAppOptions {
  secret: string;
  /** The connection string of a project's login roles (the `api` role is used). */
  resolver: ConnectionResolver;
  settings: DataApiSettingsResolver;
  dependencies?: Record<string, () => Promise<unknown>>;
  /** Ships a log event per GraphQL request (closed with the app); none when not given. */
  logs?: LogShipper;
  logger?: boolean | FastifyBaseLogger;
}

/** A GraphQL request's body, as GraphQL over HTTP has it. */
interface GraphqlParams {
  query: string;
  variables: Record<string, unknown> | null;
  operationName: string | null;
}

/**
 * The project's GraphQL endpoint, `/:ref/v1` (the gateway serves it at `/p/<ref>/graphql/v1`): PostGraphile
 * over the data API's exposed schemas, every request in a transaction as the caller's role with the
 * caller's claims, so grants and row-level security decide what it sees and changes.
 */
export function buildApp(options: GraphqlAppOptions): ServiceApp {
  const app = createServiceApp({ name: 'graphql', secret: options.secret, logger: options.logger, dependencies: options.dependencies });
  const engines = new GraphqlEngines(options.resolver);
  app.addHook('onClose', () => engines.closeAll());
  // The role each request ran as, for its log event.
  const roles = new WeakMap<FastifyRequest, string>();
  registerGraphqlLogs(app, options.logs, (request) => roles.get(request) ?? null);

  const handle = async (request: FastifyRequest, reply: FastifyReply, params: GraphqlParams | string) => {
    const { ref } = request.params as { ref: string };
    const settings = await options.settings(ref);
    let caller: GraphqlCaller;
    try {
      caller = graphqlCaller(request.headers, settings.jwtSecret);
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      return reply
        .status(error.status)
        .header('www-authenticate', `Bearer error="invalid_token", error_description="${error.message.replace(/["\\]/g, '\\$&')}"`)
        .type('application/json')
        .send(error.toJSON());
    }
    roles.set(request, caller.role);
    if (typeof params === 'string') return reply.status(400).send(requestError(params));
    const { schemas } = settings.dataApi;
    if (schemas.length === 0) return reply.status(404).send(requestError('The data API is off: Settings → API exposes no schema'));
    const { schema, resolvedPreset } = await engines.get(ref).schemaFor(schemas);
    const result = await grafast({
      schema,
      resolvedPreset,
      source: params.query,
      variableValues: params.variables,
      operationName: params.operationName,
      requestContext: { dashPgSettings: transactionSettings(caller, settings.dataApi) },
    });
    if (Symbol.asyncIterator in result) {
      await result.return?.(undefined);
      return reply.status(400).send(requestError('Incremental delivery (@defer, @stream) is not supported'));
    }
    // A request that could not be executed (it does not parse or validate) has no `data`.
    return reply.status('data' in result ? 200 : 400).type('application/json').send(result);
  };

  // POST only: a GET would let a plain link run a mutation as anon.
  for (const url of ['/:ref/v1', '/:ref/v1/']) {
    app.post(url, { schema: { params: RefParams } }, (request, reply) => handle(request, reply, paramsFromBody(request.body)));
  }
  return app;
}

/**
 * What the request's transaction sets (PostGraphile applies them with `set_config(…, true)`): the role to
 * become, the claims `auth.uid()` and `auth.jwt()` read, and the search path the REST data API uses.
 */
function transactionSettings(caller: GraphqlCaller, dataApi: ProjectDataApiSettings['dataApi']): Record<string, string> {
  const searchPath = [...new Set([...dataApi.schemas, ...dataApi.extraSearchPath])].map(quoteIdent).join(', ');
  return { role: caller.role, 'request.jwt.claims': JSON.stringify(caller.claims), search_path: searchPath };
}

const requestError = (message: string) => ({ errors: [{ message }] });

/** The POST body's parts, or why they are not a GraphQL request. */
function paramsFromBody(body: unknown): GraphqlParams | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'The body must be a JSON object with a "query"';
  const { query, variables, operationName } = body as Record<string, unknown>;
  return checkedParams(query, variables ?? null, operationName ?? null);
}

function checkedParams(query: unknown, variables: unknown, operationName: unknown): GraphqlParams | string {
  if (typeof query !== 'string' || query.trim() === '') return 'A GraphQL request needs a "query" string';
  if (variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return '"variables" must be an object';
  if (operationName !== null && typeof operationName !== 'string') return '"operationName" must be a string';
  return { query, variables: variables as Record<string, unknown> | null, operationName };
}
