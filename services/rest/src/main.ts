import { envPort, listen, LogShipper, platformConnectionResolver, platformDataApiSettings, requireEnv, serviceAnswers, throttledDropWarning } from '@dash/service-kit';
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
    logs: logsUrl
      ? new LogShipper({
          logsUrl,
          secret,
          caller: 'rest',
          flushIntervalMs: 500,
          batchSize: 100,
          maxBuffered: 10_000,
          onDrop: throttledDropWarning((fields, message) => app.log.warn(fields, message), 'postgrest log events'),
        })
      : undefined,
    logger: true,
  });
  await listen(app, envPort('PORT', 8095));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
