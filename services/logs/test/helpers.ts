import type pg from 'pg';
import type { Kysely } from 'kysely';
import { FEATURE_FLAGS, type FeatureFlags } from '@dash/contracts';
import { createDb, createPool, ensureServiceRoles, type FeatureFlagResolver, type ServiceApp } from '@dash/service-kit';
import { createTestDatabase, TEST_SECRET } from '@dash/service-kit/dist/testing';
import { buildApp, EXPLORER_POOL_CONNECTIONS } from '../src/app';
import { migrateLogs } from '../src/db/migrations';

export interface Platform {
  /** The service's pool, logged in as its own role (`dash_logs_svc`), as `npm start` runs it. */
  pool: pg.Pool;
  /** The explorer's pool, as the explorer's role, with as many connections as main.ts gives it. */
  explorerPool: pg.Pool;
  /** The database as the server's superuser: for fixtures the service's role may not make. */
  superuserUrl: string;
  db: Kysely<unknown>;
  app: ServiceApp;
  /** Another app on the same database (its own partition memory), as a second process would be. */
  extraApp: () => Promise<ServiceApp>;
  close: () => Promise<void>;
}

/** Every feature flag on, as for an organization that has them all: the warehouse routes work. */
export const everyFlagOn: FeatureFlagResolver = async () => Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, true])) as FeatureFlags;

/** A fresh platform database with the service roles made and the logs schema migrated, and a logs app on it. */
export async function setupPlatform(): Promise<Platform> {
  const database = await createTestDatabase('logs');
  const { connections } = await ensureServiceRoles(database.url, TEST_SECRET);
  const pool = createPool(connections.logs);
  const explorerPool = createPool(connections.logsExplorer, EXPLORER_POOL_CONNECTIONS);
  const db = createDb<unknown>(pool);
  await migrateLogs(db);
  const app = buildApp({ secret: TEST_SECRET, pool, explorerPool, featureFlags: everyFlagOn });
  await app.ready();
  const extra: ServiceApp[] = [];
  return {
    pool,
    explorerPool,
    superuserUrl: database.url,
    db,
    app,
    extraApp: async () => {
      const other = buildApp({ secret: TEST_SECRET, pool, explorerPool, featureFlags: everyFlagOn });
      extra.push(other);
      await other.ready();
      return other;
    },
    close: async () => {
      for (const other of extra) await other.close();
      await app.close();
      await db.destroy();
      await explorerPool.end();
      await database.drop();
    },
  };
}

export { contractValidator } from '@dash/service-kit/dist/testing';
