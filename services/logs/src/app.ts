import type pg from 'pg';
import { createServiceApp, type ServiceApp } from '@dash/service-kit';
import { PartitionManager } from './db/partitions';
import { registerEdgeLogRoutes } from './routes/edge-logs';
import { registerEventRoutes } from './routes/events';
import { registerUsageRoutes } from './routes/usage';

export interface LogsOptions {
  /** Secret that signs identities (DASH_INTERNAL_SECRET). */
  secret: string;
  /** Pool of the platform database, whose `logs` schema is migrated (see `migrateLogs`). The caller owns it. */
  pool: pg.Pool;
  logger?: boolean;
}

export interface LogsContext {
  pool: pg.Pool;
  partitions: PartitionManager;
}

/** The logs service, not listening: `main.ts` migrates and listens, tests use `app.inject`. */
export function buildApp(options: LogsOptions): ServiceApp {
  const ctx: LogsContext = { pool: options.pool, partitions: new PartitionManager(options.pool) };
  const app = createServiceApp({ name: 'logs', secret: options.secret, logger: options.logger });
  registerEventRoutes(app, ctx);
  registerEdgeLogRoutes(app, ctx);
  registerUsageRoutes(app, ctx);
  return app;
}
