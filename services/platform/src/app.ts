import { createServiceApp, type ServiceApp } from '@dash/service-kit';
import { createPlatformContext, type PlatformConfig, type PlatformContext } from './context';
import { authRoutes } from './routes/auth';
import { authConfigRoutes } from './routes/auth-config';
import { contentStoreRoutes } from './routes/content';
import { organizationRoutes } from './routes/organizations';
import { projectRoutes } from './routes/projects';
import { registryRoutes } from './routes/registry';
import { sessionRoutes } from './routes/sessions';
import { sqlEditorSettingsRoutes } from './routes/sql-editor-settings';
import { storageConfigRoutes } from './routes/storage-config';

export type { PlatformConfig, PlatformContext } from './context';
export { createProject, decryptConnection, projectDatabaseName, projectRoleConnection } from './projects';
export { seedDemo, seedDemoData, DEMO_USERS, DEMO_ORG, DEMO_PROJECT } from './seed';

export type PlatformApp = ServiceApp & { platform: PlatformContext };

/**
 * Builds the platform service (not listening): connects to the platform database, migrates the
 * `platform` schema and registers every route of `platformRoutes`. Closing the app closes the pool.
 */
export async function buildPlatformApp(config: PlatformConfig): Promise<PlatformApp> {
  const ctx = await createPlatformContext(config);
  const app = createServiceApp({ name: 'platform', secret: config.secret, logger: config.logger });
  app.decorate('platform', ctx);
  app.addHook('onClose', async () => {
    await ctx.pool.end();
  });
  await app.register(authRoutes, { ctx });
  await app.register(sessionRoutes, { ctx });
  await app.register(projectRoutes, { ctx });
  await app.register(organizationRoutes, { ctx });
  await app.register(registryRoutes, { ctx });
  await app.register(authConfigRoutes, { ctx });
  await app.register(storageConfigRoutes, { ctx });
  await app.register(contentStoreRoutes, { ctx });
  await app.register(sqlEditorSettingsRoutes, { ctx });
  return app as PlatformApp;
}
