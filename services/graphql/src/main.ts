import { envPort, listen, platformConnectionResolver, platformDataApiSettings, requireEnv, serviceAnswers, serviceLogShipper } from '@dash/service-kit';
import { buildApp } from './app';

/**
 * Env: PORT (default 8096), DASH_INTERNAL_SECRET (signs identities between services), DASH_PLATFORM_URL (the
 * platform service: a project's `api` connection string, JWT secret and data API settings), DASH_LOGS_URL (the logs
 * service: each request's event goes there, in the data API's postgrest_logs; none without it).
 *
 * The service keeps nothing of its own: each project's schema is built from its database on first use.
 */
async function main(): Promise<void> {
  const secret = requireEnv('DASH_INTERNAL_SECRET');
  const platformUrl = requireEnv('DASH_PLATFORM_URL');
  const logsUrl = process.env.DASH_LOGS_URL;
  const app = buildApp({
    secret,
    resolver: platformConnectionResolver(platformUrl, secret, 'graphql'),
    settings: platformDataApiSettings(platformUrl, secret, 'graphql'),
    dependencies: { platform: () => serviceAnswers(platformUrl) },
    logs: serviceLogShipper({ logsUrl, secret, caller: 'graphql', what: 'GraphQL log events', warn: (fields, message) => app.log.warn(fields, message) }),
    logger: true,
  });
  await listen(app, envPort('PORT', 8096));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
