import { envPort, listen, platformAuditRecorder, platformConnectionResolver, requireEnv, serviceAnswers, serviceLogShipper } from '@dash/service-kit';
import path from 'node:path';
import { buildApp } from './app';
import { backendFromEnv } from './backend';
import { platformSettingsResolver } from './project-settings';
import { RenderCache } from './render-cache';

/**
 * Env: PORT (default 8093), DASH_INTERNAL_SECRET (signs identities), DASH_PLATFORM_URL (the platform
 * service: a project's connection string, JWT secret and upload limit), and where file bytes go:
 * DASH_STORAGE_BACKEND `disk` (default; DASH_STORAGE_DIR, default `.data/storage`) or `s3`
 * (DASH_STORAGE_S3_BUCKET, DASH_STORAGE_S3_ENDPOINT, DASH_STORAGE_S3_REGION, DASH_STORAGE_S3_FORCE_PATH_STYLE,
 * DASH_STORAGE_S3_PREFIX, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY); see `backendFromEnv`. DASH_LOGS_URL (the logs
 * service): each request's storage_logs event is sent there; without it none is written.
 * DASH_STORAGE_RENDER_CACHE_DIR (default `.data/storage-renders`): where transformed images are kept,
 * at most 1 GiB, whichever backend holds the bytes.
 *
 * Buckets and object metadata live in each project's database (`storage` schema); the service keeps
 * no schema of its own.
 */
async function main(): Promise<void> {
  const secret = requireEnv('DASH_INTERNAL_SECRET');
  const platformUrl = requireEnv('DASH_PLATFORM_URL');
  const resolver = platformConnectionResolver(platformUrl, secret, 'storage');
  const backend = backendFromEnv();
  const logsUrl = process.env.DASH_LOGS_URL;
  const app = buildApp({
    secret,
    resolver,
    backend,
    dependencies: { platform: () => serviceAnswers(platformUrl) },
    renders: new RenderCache(path.resolve(process.env.DASH_STORAGE_RENDER_CACHE_DIR || '.data/storage-renders')),
    settings: platformSettingsResolver(platformUrl, secret),
    audit: platformAuditRecorder(platformUrl, secret, 'storage'),
    logs: serviceLogShipper({ logsUrl, secret, caller: 'storage', what: 'storage log events', warn: (fields, message) => app.log.warn(fields, message) }),
    logger: true,
  });
  await listen(app, envPort('PORT', 8093));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
