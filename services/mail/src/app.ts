import type pg from 'pg';
import { createServiceApp, type ServiceApp } from '@dash/service-kit';
import { emailRoutesPlugin } from './routes/emails';
import type { MailStore } from './store';

export interface MailOptions {
  /** Secret that signs identities (DASH_INTERNAL_SECRET). */
  secret: string;
  /** Pool of the platform database, as the service's own role; its `mail` schema holds the messages. */
  pool: pg.Pool;
  store: MailStore;
  logger?: boolean;
}

/** The mail service's HTTP side, not listening: `main.ts` migrates, listens and starts the SMTP catcher. */
export function buildApp(options: MailOptions): ServiceApp {
  const app = createServiceApp({
    name: 'mail',
    secret: options.secret,
    logger: options.logger,
    dependencies: { postgres: () => options.pool.query('select 1') },
  });
  app.register(emailRoutesPlugin, { store: options.store });
  return app;
}
