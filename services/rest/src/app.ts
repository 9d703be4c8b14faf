import { createServiceApp, ProjectPools, type ConnectionResolver, type DataApiSettingsResolver, type LogShipper, type ServiceApp, type ServiceOptions } from '@dash/service-kit';
import { dataApiRoutes } from './routes/data-api';
import { registerPostgrestLogs } from './server/logs';
import type { RestContext } from './routes/context';
import { SchemaStore } from './server/schema-store';

export interface RestOptions {
  secret: string;
  /** A project's connection strings (the service uses its `api` role's). */
  resolver: ConnectionResolver;
  /** A project's JWT secret and Settings → API's data API settings. */
  settings: DataApiSettingsResolver;
  dependencies?: ServiceOptions['dependencies'];
  /** Ships a postgrest_logs event per request (closed with the app); none when not given. */
  logs?: LogShipper;
  logger?: boolean;
}

/** Bodies up to this size (a bulk insert of many rows); larger ones are refused with 413. */
const BODY_LIMIT_BYTES = 100 * 1024 * 1024;

/** The data API service, not listening: `main.ts` listens, tests use `app.inject` or listen on port 0. */
export function buildRestApp(options: RestOptions): ServiceApp {
  // PostgREST's authenticator: the project's `api` login role, which can only become anon, authenticated or service_role.
  const pools = new ProjectPools(options.resolver, 20, 'api');
  const app = createServiceApp({ name: 'rest', secret: options.secret, logger: options.logger, dependencies: options.dependencies, bodyLimit: BODY_LIMIT_BYTES, maxParamLength: 2048 });
  const schemas = new SchemaStore(pools, options.resolver, (message, error) => app.log.warn({ err: error }, message));
  const ctx: RestContext = { pools, settings: options.settings, schemas };
  registerPostgrestLogs(app, options.logs);
  app.register(dataApiRoutes, { ctx });
  app.addHook('onClose', async () => {
    await schemas.close();
    await pools.closeAll();
  });
  return app;
}
