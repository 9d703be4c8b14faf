import { createServiceApp, type ServiceApp } from '@dash/service-kit';
import { createPlatformContext, type PlatformConfig, type PlatformContext } from './context';
import { authRoutes } from './routes/auth';
import { accessTokenRoutes } from './routes/access-tokens';
import { accountProfileRoutes } from './routes/account';
import { mfaRoutes } from './routes/mfa';
import { authConfigRoutes } from './routes/auth-config';
import { authSmtpRoutesPlugin } from './routes/auth-smtp';
import { contentStoreRoutes } from './routes/content';
import { reportContentRoutes } from './routes/reports';
import { logQueryRoutes } from './routes/log-queries';
import { dashConfigRoutesPlugin } from './routes/dash-config';
import { organizationRoutes } from './routes/organizations';
import { auditLogRoutes } from './routes/audit';
import { invitationRoutes } from './routes/invitations';
import { oauthAppRoutes } from './routes/oauth-apps';
import { teamRoutes } from './routes/team';
import { usageRoutes } from './routes/usage';
import { projectRoutes } from './routes/projects';
import { projectLifecycleRoutesPlugin } from './routes/project-lifecycle';
import { registryRoutes } from './routes/registry';
import { sessionRoutes } from './routes/sessions';
import { sqlEditorSettingsRoutes } from './routes/sql-editor-settings';
import { dataApiSettingsRoutes } from './routes/data-api-settings';
import { storageConfigRoutes } from './routes/storage-config';
import { projectKeyRoutes } from './routes/project-keys';
import { dataApiTokenRoutes } from './routes/data-api-token';
import { projectDatabaseRoutes } from './routes/project-database';
import { vaultRoutes } from './routes/vault';
import { addonRoutes } from './routes/addons';
import { logSourceRoutes } from './routes/log-sources';
import { backupRoutesPlugin } from './routes/backups';

export type { PlatformConfig, PlatformContext } from './context';
export { decryptConnection, projectDatabaseName, projectRoleConnection } from './projects';
export { createProject } from './provisioner';
export { seedDemo, DEMO_USERS, DEMO_ORG, DEMO_PROJECT } from './seed';

export type PlatformApp = ServiceApp & { platform: PlatformContext };

/**
 * Builds the platform service (not listening): connects to the platform database, migrates the
 * `platform` schema and registers every route of `platformRoutes`. Closing the app closes the pool.
 */
export async function buildPlatformApp(config: PlatformConfig): Promise<PlatformApp> {
  const ctx = await createPlatformContext(config);
  const app = createServiceApp({
    name: 'platform',
    secret: config.secret,
    logger: config.logger,
    dependencies: { postgres: () => ctx.pool.query('select 1') },
  });
  app.decorate('platform', ctx);
  app.addHook('onReady', async () => ctx.authLogs.start(app.log));
  app.addHook('onClose', async () => {
    await ctx.authLogs.close();
    await ctx.pool.end();
  });
  await app.register(authRoutes, { ctx });
  await app.register(sessionRoutes, { ctx });
  await app.register(accountProfileRoutes, { ctx });
  await app.register(accessTokenRoutes, { ctx });
  await app.register(mfaRoutes, { ctx });
  await app.register(projectRoutes, { ctx });
  await app.register(projectLifecycleRoutesPlugin, { ctx });
  await app.register(organizationRoutes, { ctx });
  await app.register(teamRoutes, { ctx });
  await app.register(invitationRoutes, { ctx });
  await app.register(oauthAppRoutes, { ctx });
  await app.register(usageRoutes, { ctx, logsUrl: config.logsUrl, secret: config.secret });
  await app.register(auditLogRoutes, { ctx });
  await app.register(registryRoutes, { ctx });
  await app.register(authConfigRoutes, { ctx });
  await app.register(authSmtpRoutesPlugin, { ctx });
  await app.register(storageConfigRoutes, { ctx });
  await app.register(projectKeyRoutes, { ctx });
  await app.register(projectDatabaseRoutes, { ctx });
  await app.register(vaultRoutes, { ctx });
  await app.register(addonRoutes, { ctx });
  await app.register(contentStoreRoutes, { ctx });
  await app.register(reportContentRoutes, { ctx });
  await app.register(logQueryRoutes, { ctx });
  await app.register(sqlEditorSettingsRoutes, { ctx });
  await app.register(dataApiSettingsRoutes, { ctx });
  await app.register(dataApiTokenRoutes, { ctx });
  await app.register(dashConfigRoutesPlugin, { ctx });
  await app.register(logSourceRoutes, { ctx });
  // After the lifecycle routes, which make the provisioner a restore hands its new project to.
  await app.register(backupRoutesPlugin, { ctx });
  return app as PlatformApp;
}
