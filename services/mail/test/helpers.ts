import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import type { Kysely } from 'kysely';
import { authSmtpRoutes, MAIL_CATCHER_SENDER, type ProjectMailDelivery } from '@dash/contracts';
import { addRoute, createDb, createPool, createServiceApp, ensureServiceRoles, type ServiceApp } from '@dash/service-kit';
import { createTestDatabase, TEST_SECRET } from '@dash/service-kit/dist/testing';
import type { SMTPServer } from 'smtp-server';
import { buildApp } from '../src/app';
import { closeCatcher, createCatcher, listenCatcher } from '../src/catcher';
import { migrateMail } from '../src/db/migrations';
import { MailStore } from '../src/store';

export interface MailStack {
  /** The service's pool, logged in as its own role (`dash_mail_svc`), as `npm start` runs it. */
  pool: pg.Pool;
  db: Kysely<unknown>;
  store: MailStore;
  app: ServiceApp;
  catcher: SMTPServer;
  smtpPort: number;
  /** What the catcher logged as problems (nothing a client sends should be more than a warning). */
  warnings: string[];
  close: () => Promise<void>;
}

/** A fresh platform database with the mail schema migrated, the HTTP app and the SMTP catcher on a free port. */
export async function setupMail(keep = 500, maxBytes?: number): Promise<MailStack> {
  const database = await createTestDatabase('mail');
  const { connections } = await ensureServiceRoles(database.url, TEST_SECRET);
  const pool = createPool(connections.mail);
  const db = createDb<unknown>(pool);
  await migrateMail(db);
  const store = new MailStore(pool, keep);
  const app = buildApp({ secret: TEST_SECRET, pool, store });
  await app.ready();
  const warnings: string[] = [];
  const catcher = createCatcher({ secret: TEST_SECRET, store, maxBytes, log: { warn: (_details, message) => warnings.push(message) } });
  const smtpPort = await listenCatcher(catcher, 0);
  return {
    pool,
    db,
    store,
    app,
    catcher,
    smtpPort,
    warnings,
    close: async () => {
      await closeCatcher(catcher);
      await app.close();
      await db.destroy();
      await database.drop();
    },
  };
}

/**
 * A stand-in for the platform's internal delivery route (the platform service has its own tests of it):
 * answers `deliveries[ref]`, the catcher when absent.
 */
export async function fakePlatform(deliveries: Record<string, ProjectMailDelivery> = {}): Promise<{ url: string; calls: string[]; close: () => Promise<void> }> {
  const app = createServiceApp({ name: 'platform', secret: TEST_SECRET });
  const calls: string[] = [];
  addRoute(app, authSmtpRoutes.projectMailDelivery, async ({ params }) => {
    calls.push(params.ref);
    return deliveries[params.ref] ?? { sender: { ...MAIL_CATCHER_SENDER }, smtp: null, max_frequency: 60 };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, calls, close: () => app.close() };
}
