import { BackupMessages } from '@dash/contracts';
import { envPort, listen, requireEnv } from '@dash/service-kit';
import { buildPlatformApp } from './app';
import { DEFAULT_PROJECT_DB_PREFIX } from './context';
import { flagOverridesFromEnv, parseDashMode } from './feature-flags';
import { scopeProjectStatistics, setUpMissingProjectRoles } from './projects';
import { provisionerOf } from './provisioner';
import { seedDemo } from './seed';
import { backupRunnerOf } from './backups/runner';
import { pitrArchiveOf } from './backups/pitr';
import { failInterruptedBackups } from './db/backups';

async function main(): Promise<void> {
  const port = envPort('PORT', 8091);
  const password = requireEnv('DASHBOARD_DEMO_PASSWORD');
  const app = await buildPlatformApp({
    databaseUrl: requireEnv('DASH_PLATFORM_DATABASE_URL'),
    adminUrl: requireEnv('DASH_POSTGRES_ADMIN_URL'),
    projectDbPrefix: process.env.DASH_PROJECT_DB_PREFIX || DEFAULT_PROJECT_DB_PREFIX,
    secret: requireEnv('DASH_INTERNAL_SECRET'),
    encryptionKey: requireEnv('DASH_ENCRYPTION_KEY'),
    cookieSecure: process.env.DASH_COOKIE_SECURE === '1',
    mode: parseDashMode(process.env.DASH_MODE),
    flagOverrides: flagOverridesFromEnv(process.env),
    logsUrl: process.env.DASH_LOGS_URL || undefined,
    pitrDir: process.env.DASH_PITR_DIR || undefined,
    logger: true,
  });
  const roles = await setUpMissingProjectRoles(app.platform);
  for (const ref of roles.upgraded) process.stdout.write(`platform: gave project ${ref} its database roles\n`);
  for (const ref of roles.failed) app.log.warn({ ref }, "the project's database roles could not be set up; trying again at the next start");
  // Projects a previous run left coming up carry on in the background.
  for (const ref of await provisionerOf(app.platform).resume()) {
    process.stdout.write(`platform: resuming project ${ref}, which is coming up\n`);
  }
  // Backups this process was making when it last stopped will not finish; the daily schedule starts.
  if (app.platform.mode === 'hosted') {
    const interrupted = await failInterruptedBackups(app.platform.db, BackupMessages.interrupted);
    if (interrupted > 0) process.stdout.write(`platform: ${interrupted} backup(s) were interrupted by a restart\n`);
    backupRunnerOf(app.platform).startSchedule();
    await pitrArchiveOf(app.platform, (message) => app.log.warn(message))?.start();
  }
  const seed = await seedDemo(app.platform, { password });
  if (seed.seeded) {
    for (const user of seed.users) {
      process.stdout.write(`platform: seeded demo user ${user.email} (${user.role}) in project ${seed.projectRef}\n`);
    }
  }
  await listen(app, port);
  // An upgrade of older project databases, done in the background so a restart answers sooner.
  void scopeProjectStatistics(app.platform).then(
    (failed) => failed.forEach((ref) => app.log.warn({ ref }, 'statement statistics could not be scoped to the project; trying again at the next start')),
    (error: unknown) => app.log.warn({ err: error }, 'statement statistics could not be scoped'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`platform failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
