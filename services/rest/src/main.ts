import { envPort, listen, platformConnectionResolver, platformDataApiSettings, requireEnv, serviceAnswers, serviceLogShipper } from '@dash/service-kit';
import { buildRestApp } from './app';

/**
 * Env: PORT (default 8095), DASH_INTERNAL_SECRET, DASH_PLATFORM_URL (a project's connection strings, JWT
 * secret and Settings → API), DASH_LOGS_URL (postgrest_logs events; none without it).
 */
async function main(): Promise<void> {
  const secret = requireEnv('DASH_INTERNAL_SECRET');
  const platformUrl = requireEnv('DASH_PLATFORM_URL');
  const logsUrl = process.env.DASH_LOGS_URL;
  const app = buildRestApp({
    secret,
    resolver: platformConnectionResolver(platformUrl, secret, 'rest'),
    settings: platformDataApiSettings(platformUrl, secret, 'rest'),
    dependencies: { platform: () => serviceAnswers(platformUrl) },
    logs: serviceLogShipper({ logsUrl, secret, caller: 'rest', what: 'postgrest log events', warn: (fields, message) => app.log.warn(fields, message) }),
    logger: true,
  });
  await listen(app, envPort('PORT', 8095));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
