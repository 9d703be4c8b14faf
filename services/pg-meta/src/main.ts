import { contentRoutes, type SqlEditorSettings } from '@dash/contracts';
import { cachedPerProject, callService, envPort, listen, platformAuditRecorder, platformConnectionResolver, PROJECT_NOT_FOUND, requireEnv, serviceAnswers } from '@dash/service-kit';
import { buildApp } from './app';

/**
 * Env: PORT (default 8092), DASH_INTERNAL_SECRET (signs identities), DASH_PLATFORM_URL (the platform
 * service, which resolves a project ref to its database connection string).
 */
async function main(): Promise<void> {
  const secret = requireEnv('DASH_INTERNAL_SECRET');
  const platformUrl = requireEnv('DASH_PLATFORM_URL');
  const resolver = platformConnectionResolver(platformUrl, secret, 'pg-meta');
  const app = buildApp({
    secret,
    resolver,
    dependencies: { platform: () => serviceAnswers(platformUrl) },
    logger: true,
    sqlEditorSettings: cachedSettings(platformUrl, secret),
    audit: platformAuditRecorder(platformUrl, secret, 'pg-meta'),
  });
  await listen(app, envPort('PORT', 8092));
}

/** The project's SQL editor settings, asked of the platform at most every few seconds per project. */
function cachedSettings(platformUrl: string, secret: string): (ref: string) => Promise<SqlEditorSettings> {
  return cachedPerProject(5_000, (ref) =>
    callService(platformUrl, secret, 'pg-meta', contentRoutes.internalSqlEditorSettings, { params: { ref }, notFound: PROJECT_NOT_FOUND }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
