import { envPort, listen, platformConnectionResolver, requireEnv } from '@dash/service-kit';
import { buildApp } from './app';

/**
 * Env: PORT (default 8092), DASH_INTERNAL_SECRET (signs identities), DASH_PLATFORM_URL (the platform
 * service, which resolves a project ref to its database connection string).
 */
async function main(): Promise<void> {
  const secret = requireEnv('DASH_INTERNAL_SECRET');
  const resolver = platformConnectionResolver(requireEnv('DASH_PLATFORM_URL'), secret, 'pg-meta');
  const app = buildApp({ secret, resolver, logger: true });
  await listen(app, envPort('PORT', 8092));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
