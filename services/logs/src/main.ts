import { createDb, createPool, envPort, listen, platformFeatureFlags, requireEnv } from '@dash/service-kit';
import { buildApp, EXPLORER_POOL_CONNECTIONS } from './app';
import { migrateLogs } from './db/migrations';
import { PartitionManager } from './db/partitions';
import { PostgresLogTailer } from './postgres-tail';
import { platformProjectDatabases, ProjectDatabaseMap } from './project-databases';
import { RetentionSweeper } from './retention';
import { COLLECTION_EVENTS_TABLE } from './sql/warehouse';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Env: PORT (default 8094), DASH_INTERNAL_SECRET (signs identities), DASH_PLATFORM_DATABASE_URL (the
 * platform database as the service's role; this service owns its `logs` schema there and migrates it at
 * start), DASH_LOGS_EXPLORER_DATABASE_URL (the same database as the explorer's role, see the kit's
 * `ensureServiceRoles`; DASH_PLATFORM_DATABASE_URL when unset), DASH_MODE
 * (`self-hosted` refuses pooler logs; the platform checks the value), DASH_LOGS_SWEEP_INTERVAL_MS (how
 * often expired day partitions are dropped; default one hour).
 *
 * Postgres logs: DASH_POSTGRES_LOG_DIR is the project server's log_directory, written as `jsonlog`
 * (`npm start` sets the embedded server up so); with DASH_PLATFORM_URL (which project owns which
 * database) this service follows those files. Without DASH_POSTGRES_LOG_DIR there are no Postgres logs.
 */
async function main(): Promise<void> {
  const secret = requireEnv('DASH_INTERNAL_SECRET');
  const databaseUrl = requireEnv('DASH_PLATFORM_DATABASE_URL');
  const pool = createPool(databaseUrl);
  const explorerPool = createPool(process.env.DASH_LOGS_EXPLORER_DATABASE_URL || databaseUrl, EXPLORER_POOL_CONNECTIONS);
  const db = createDb<unknown>(pool);
  await migrateLogs(db);
  const mode = process.env.DASH_MODE === 'self-hosted' ? 'self-hosted' : 'hosted';
  const featureFlags = platformFeatureFlags(requireEnv('DASH_PLATFORM_URL'), secret, 'logs');
  const app = buildApp({ secret, pool, explorerPool, logger: true, mode, featureFlags });
  const partitions = new PartitionManager(pool);

  const sweepMs = Number(process.env.DASH_LOGS_SWEEP_INTERVAL_MS) || HOUR_MS;
  const sweeper = new RetentionSweeper(
    pool,
    [partitions, new PartitionManager(pool, COLLECTION_EVENTS_TABLE)],
    sweepMs,
    (dropped) => app.log.info({ dropped }, 'expired log partitions dropped'),
    (error) => app.log.warn({ err: error }, 'log retention sweep failed'),
  );

  const logDir = process.env.DASH_POSTGRES_LOG_DIR;
  let tailer: PostgresLogTailer | null = null;
  if (logDir) {
    const databases = new ProjectDatabaseMap(platformProjectDatabases(requireEnv('DASH_PLATFORM_URL'), secret));
    let lastWarning = 0;
    tailer = new PostgresLogTailer({
      dir: logDir,
      pool,
      partitions,
      databases,
      pollMs: Number(process.env.DASH_POSTGRES_LOG_POLL_MS) || 500,
      onError: (error) => {
        // It retries every round from the same offset; one warning a minute is enough.
        if (Date.now() - lastWarning < 60_000) return;
        lastWarning = Date.now();
        app.log.warn({ err: error, dir: logDir }, 'reading the Postgres log failed; retrying');
      },
    });
  }

  app.addHook('onReady', async () => {
    sweeper.start();
    tailer?.start();
  });
  app.addHook('onClose', async () => {
    await sweeper.stop();
    await tailer?.stop();
    await db.destroy();
    await explorerPool.end();
  });
  await listen(app, envPort('PORT', 8094));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
