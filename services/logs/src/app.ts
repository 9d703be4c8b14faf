import type pg from 'pg';
import type { DashMode } from '@dash/contracts';
import { createServiceApp, type FeatureFlagResolver, type ServiceApp } from '@dash/service-kit';
import { PartitionManager } from './db/partitions';
import { eventRoutesPlugin } from './routes/events';
import { explorerRoutesPlugin } from './routes/explorer';
import { retentionRoutesPlugin } from './routes/retention';
import { sourceEventRoutesPlugin } from './routes/source-events';
import { reportRoutesPlugin } from './routes/reports';
import { usageRoutesPlugin } from './routes/usage';
import { warehouseRoutesPlugin } from './routes/warehouse';
import type { IngestLimits } from './routes/ingest';

export interface LogsOptions {
  /** Secret that signs identities (DASH_INTERNAL_SECRET). */
  secret: string;
  /**
   * Pool of the platform database, whose `logs` schema is migrated (see `migrateLogs`): log pages, ingest,
   * reports, retention, as the service's own role. The caller owns it.
   */
  pool: pg.Pool;
  /**
   * The logs explorer's own pool (`EXPLORER_POOL_CONNECTIONS`, as its login role), so members' SQL cannot
   * take every connection the log pages and ingest need. The caller owns it; without one (benchmarks)
   * the explorer shares `pool`.
   */
  explorerPool?: pg.Pool;
  logger?: boolean;
  /** The deployment's variant (DASH_MODE): a self-hosted one has no pooler logs. Default hosted. */
  mode?: DashMode;
  /** Collection ingest's limits (tests lower them); the contract's by default. */
  ingestLimits?: Partial<IngestLimits>;
  /** The flags of a project's organization (the platform's, in `main.ts`); without it the warehouse routes are refused. */
  featureFlags?: FeatureFlagResolver;
}

/** Connections of the explorer's pool: at most this many explorer queries run at once, the others wait for one. */
export const EXPLORER_POOL_CONNECTIONS = 3;

export interface LogsContext {
  pool: pg.Pool;
  explorerPool: pg.Pool;
  partitions: PartitionManager;
  mode: DashMode;
}

/** The logs service, not listening: `main.ts` migrates and listens, tests use `app.inject`. */
export function buildApp(options: LogsOptions): ServiceApp {
  const ctx: LogsContext = {
    pool: options.pool,
    explorerPool: options.explorerPool ?? options.pool,
    partitions: new PartitionManager(options.pool),
    mode: options.mode ?? 'hosted',
  };
  const app = createServiceApp({
    name: 'logs',
    secret: options.secret,
    logger: options.logger,
    featureFlags: options.featureFlags,
    dependencies: { postgres: () => options.pool.query('select 1') },
  });
  // Each route file is an encapsulated plugin; Fastify loads them at ready (listen, inject), so this stays synchronous.
  app.register(eventRoutesPlugin, { ctx });
  app.register(sourceEventRoutesPlugin, { ctx });
  app.register(retentionRoutesPlugin, { ctx });
  app.register(usageRoutesPlugin, { ctx });
  app.register(reportRoutesPlugin, { ctx });
  app.register(warehouseRoutesPlugin, { ctx, ingestLimits: options.ingestLimits });
  app.register(explorerRoutesPlugin, { ctx });
  return app;
}
