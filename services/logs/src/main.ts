import { createDb, createPool, envPort, listen, requireEnv } from '@dash/service-kit';
import { buildApp } from './app';
import { migrateLogs } from './db/migrations';

/**
 * Env: PORT (default 8094), DASH_INTERNAL_SECRET (signs identities), DASH_PLATFORM_DATABASE_URL (the
 * platform database; this service owns its `logs` schema there and migrates it at start).
 */
async function main(): Promise<void> {
  const secret = requireEnv('DASH_INTERNAL_SECRET');
  const pool = createPool(requireEnv('DASH_PLATFORM_DATABASE_URL'));
  const db = createDb<unknown>(pool);
  await migrateLogs(db);
  const app = buildApp({ secret, pool, logger: true });
  app.addHook('onClose', async () => {
    await db.destroy();
  });
  await listen(app, envPort('PORT', 8094));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
