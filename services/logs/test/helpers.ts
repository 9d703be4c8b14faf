import type pg from 'pg';
import type { Kysely } from 'kysely';
import { FEATURE_FLAGS, type FeatureFlags } from '@dash/contracts';
import { createDb, createPool, type FeatureFlagResolver, type ServiceApp } from '@dash/service-kit';
import { createTestDatabase, TEST_SECRET } from '@dash/service-kit/dist/testing';
import { buildApp } from '../src/app';
import { migrateLogs } from '../src/db/migrations';

export interface Platform {
  pool: pg.Pool;
  db: Kysely<unknown>;
  app: ServiceApp;
  /** Another app on the same database (its own partition memory), as a second process would be. */
  extraApp: () => Promise<ServiceApp>;
  close: () => Promise<void>;
}

/** Every feature flag on, as for an organization that has them all: the warehouse routes work. */
export const everyFlagOn: FeatureFlagResolver = async () => Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, true])) as FeatureFlags;

/** A fresh platform database with the logs schema migrated, and a logs app on it. */
export async function setupPlatform(): Promise<Platform> {
  const database = await createTestDatabase('logs');
  const pool = createPool(database.url);
  const db = createDb<unknown>(pool);
  await migrateLogs(db);
  const app = buildApp({ secret: TEST_SECRET, pool, featureFlags: everyFlagOn });
  await app.ready();
  const extra: ServiceApp[] = [];
  return {
    pool,
    db,
    app,
    extraApp: async () => {
      const other = buildApp({ secret: TEST_SECRET, pool, featureFlags: everyFlagOn });
      extra.push(other);
      await other.ready();
      return other;
    },
    close: async () => {
      for (const other of extra) await other.close();
      await app.close();
      await db.destroy();
      await database.drop();
    },
  };
}

export { contractValidator } from '@dash/service-kit/dist/testing';
