import { MAIL_KEPT_PER_PROJECT } from '@dash/contracts';
import { createDb, createPool, envPort, listen, requireEnv } from '@dash/service-kit';
import { buildApp } from './app';
import { closeCatcher, createCatcher, listenCatcher } from './catcher';
import { migrateMail } from './db/migrations';
import { MailStore } from './store';

/**
 * Env: PORT (HTTP, default 8098), DASH_MAIL_SMTP_PORT (the SMTP catcher, default 8099; both on
 * 127.0.0.1), DASH_INTERNAL_SECRET (signs identities and derives each project's SMTP password),
 * DASH_PLATFORM_DATABASE_URL (the platform database as the service's role; it owns the `mail` schema
 * there and migrates it at start).
 */
async function main(): Promise<void> {
  const secret = requireEnv('DASH_INTERNAL_SECRET');
  const pool = createPool(requireEnv('DASH_PLATFORM_DATABASE_URL'));
  const db = createDb<unknown>(pool);
  await migrateMail(db);
  const store = new MailStore(pool, MAIL_KEPT_PER_PROJECT);
  const app = buildApp({ secret, pool, store, logger: true });
  const catcher = createCatcher({ secret, store, log: app.log });
  const smtpPort = await listenCatcher(catcher, envPort('DASH_MAIL_SMTP_PORT', 8099));
  app.log.info({ port: smtpPort }, 'mail catcher listening (SMTP)');
  app.addHook('onClose', async () => {
    await closeCatcher(catcher);
    await db.destroy();
  });
  await listen(app, envPort('PORT', 8098));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
