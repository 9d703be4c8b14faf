import { envPort, listen, platformConnectionResolver, requireEnv } from '@dash/service-kit';
import { buildApp } from './app';

/**
 * Env: PORT (default 8093), DASH_INTERNAL_SECRET (signs identities), DASH_PLATFORM_URL (the platform
 * service, which resolves a project ref to its database connection string).
 *
 * The storage service has no schema of its own in the platform database yet: buckets live in each
 * project's database (`storage.buckets`). Storage settings (upload limits, file backend) will add a
 * `storage` schema in the platform database, migrated here at start with kit `migrateSchema`.
 */
async function main(): Promise<void> {
  const secret = requireEnv('DASH_INTERNAL_SECRET');
  const resolver = platformConnectionResolver(requireEnv('DASH_PLATFORM_URL'), secret, 'storage');
  const app = buildApp({ secret, resolver, logger: true });
  await listen(app, envPort('PORT', 8093));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
