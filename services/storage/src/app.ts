import { createServiceApp, ProjectPools, type ConnectionResolver, type ServiceApp } from '@dash/service-kit';
import { bucketSchemaErrorMessage } from './bucket-rules';
import { registerBucketRoutes } from './routes/buckets';

export interface StorageOptions {
  /** Secret that signs identities (DASH_INTERNAL_SECRET). */
  secret: string;
  /** Pools of project databases. The caller owns them; give `resolver` instead to let the app own its pools. */
  pools?: ProjectPools;
  /** Finds a project's connection string; the app then creates its pools and closes them on close. */
  resolver?: ConnectionResolver;
  logger?: boolean;
}

export interface StorageContext {
  pools: ProjectPools;
}

/** The storage service, not listening: `main.ts` listens, tests use `app.inject`. */
export function buildApp(options: StorageOptions): ServiceApp {
  const owned = options.pools === undefined;
  let pools = options.pools;
  if (!pools) {
    if (!options.resolver) throw new Error('storage needs either pools or a connection resolver');
    pools = new ProjectPools(options.resolver);
  }
  const ctx: StorageContext = { pools };
  const app = createServiceApp({ name: 'storage', secret: options.secret, logger: options.logger });
  // Before the routes: each route takes the formatter in force when it is added.
  app.setSchemaErrorFormatter((errors, dataVar) => new Error(bucketSchemaErrorMessage(errors, dataVar)));
  registerBucketRoutes(app, ctx);
  if (owned) app.addHook('onClose', async () => ctx.pools.closeAll());
  return app;
}
