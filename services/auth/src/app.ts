import { createServiceApp, ProjectPools, type ConnectionResolver, type LogShipper, type ProjectMailer, type ServiceApp, type ServiceOptions } from '@dash/service-kit';
import { authApiRoutes } from './routes/auth-api';
import { dashboardRoutes } from './routes/dashboard';
import type { AuthServiceContext, AuthSettingsResolver } from './server/context';
import { AuthEvents } from './server/events';
import { RateLimiter } from './server/rate-limit';

export interface AuthOptions {
  secret: string;
  /** A project's connection strings (the service uses its `auth` role's). */
  resolver: ConnectionResolver;
  /** A project's JWT secret and Authentication's settings. */
  settings: AuthSettingsResolver;
  mailer: ProjectMailer;
  /** The gateway's browser-facing origin: the base of links in mails and the tokens' issuer. */
  publicUrl: string;
  dependencies?: ServiceOptions['dependencies'];
  /** Ships an auth_logs event per request (closed with the app); none when not given. */
  logs?: LogShipper;
  logger?: boolean;
  /** Clock of the rate limits (tests move it). */
  now?: () => number;
  refreshReuseIntervalSeconds?: number;
}

/** Bodies are small JSON objects; user metadata is the largest part. */
const BODY_LIMIT_BYTES = 256 * 1024;

/** The auth service, not listening: `main.ts` listens, tests use `app.inject` or listen on port 0. */
export function buildAuthApp(options: AuthOptions): ServiceApp {
  const app = createServiceApp({ name: 'auth', secret: options.secret, logger: options.logger, dependencies: options.dependencies, bodyLimit: BODY_LIMIT_BYTES });
  const pools = new ProjectPools(options.resolver, 10, 'auth');
  const events = new AuthEvents(options.logs);
  events.register(app);
  const ctx: AuthServiceContext = {
    pools,
    settings: options.settings,
    mailer: options.mailer,
    limits: new RateLimiter(options.now),
    events,
    publicUrl: options.publicUrl.replace(/\/+$/, ''),
    refreshReuseIntervalSeconds: options.refreshReuseIntervalSeconds ?? 10,
  };
  app.register(authApiRoutes, { ctx });
  app.register(dashboardRoutes, { ctx });
  app.addHook('onClose', async () => {
    options.mailer.close();
    await pools.closeAll();
  });
  return app;
}
