import { envPort, listen, requireEnv } from '@dash/service-kit';
import { buildGatewayApp } from './app';

async function main(): Promise<void> {
  const port = envPort('PORT', 8080);
  const app = await buildGatewayApp({
    secret: requireEnv('DASH_INTERNAL_SECRET'),
    upstreams: {
      platform: requireEnv('DASH_PLATFORM_URL'),
      'pg-meta': requireEnv('DASH_PG_META_URL'),
      storage: requireEnv('DASH_STORAGE_URL'),
      logs: requireEnv('DASH_LOGS_URL'),
      rest: requireEnv('DASH_REST_URL'),
      graphql: requireEnv('DASH_GRAPHQL_URL'),
      mail: requireEnv('DASH_MAIL_URL'),
      auth: requireEnv('DASH_AUTH_URL'),
    },
    shellDir: process.env.DASH_SHELL_DIR || undefined,
    // Comma-separated; by default both loopback spellings of the gateway's own address.
    publicOrigin: (process.env.DASH_PUBLIC_ORIGIN || `http://127.0.0.1:${port},http://localhost:${port}`)
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    logger: true,
  });
  await listen(app, port);
}

main().catch((error: unknown) => {
  process.stderr.write(`gateway failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
