import type pg from 'pg';
import type { DashMode } from '@dash/contracts';
import { createServiceApp, type ServiceApp } from '@dash/service-kit';
import { PartitionManager } from './db/partitions';
import { registerEventRoutes } from './routes/events';
import { registerExplorerRoutes } from './routes/explorer';
import { registerRetentionRoutes } from './routes/retention';
import { registerSourceEventRoutes } from './routes/source-events';
import { registerReportRoutes } from './routes/reports';
import { registerUsageRoutes } from './routes/usage';
import { registerWarehouse } from './routes/warehouse';
import type { IngestLimits } from './routes/ingest';

export interface LogsOptions {
  /** Secret that signs identities (DASH_INTERNAL_SECRET). */
  secret: string;
  /** Pool of the platform database, whose `logs` schema is migrated (see `migrateLogs`). The caller owns it. */
  pool: pg.Pool;
  logger?: boolean;
  /** The deployment's variant (DASH_MODE): a self-hosted one has no pooler logs. Default hosted. */
  mode?: DashMode;
  /** Collection ingest's limits (tests lower them); the contract's by default. */
  ingestLimits?: Partial<IngestLimits>;
}

export interface LogsContext {
  pool: pg.Pool;
  partitions: PartitionManager;
  mode: DashMode;
}

/** The logs service, not listening: `main.ts` migrates and listens, tests use `app.inject`. */
export function buildApp(options: LogsOptions): ServiceApp {
  const ctx: LogsContext = { pool: options.pool, partitions: new PartitionManager(options.pool), mode: options.mode ?? 'hosted' };
  const app = createServiceApp({ name: 'logs', secret: options.secret, logger: options.logger });
  registerEventRoutes(app, ctx);
  registerSourceEventRoutes(app, ctx);
  registerRetentionRoutes(app, ctx);
  registerUsageRoutes(app, ctx);
  registerReportRoutes(app, ctx);
  registerWarehouse(app, ctx, options.ingestLimits);
  registerExplorerRoutes(app, ctx);
  return app;
}
