import { createServiceApp, type ServiceOptions, ProjectPools, type AuditRecorder, type ConnectionResolver, type LogShipper, type ServiceApp } from '@dash/service-kit';
import { registerApiErrorReplies, registerApiNotFound } from './api-errors';
import { projectKeyVerifier } from './api-keys';
import { bucketSchemaErrorMessage } from './bucket-rules';
import { registerReplyStatus } from './objects/download';
import { apiBucketRoutes } from './routes/api-buckets';
import { apiObjectRoutes } from './routes/api-objects';
import { bucketRoutes } from './routes/buckets';
import { registerStorageLogs } from './storage-logs';
import { objectRoutes } from './routes/objects';
import type { ObjectBackend } from './backend/types';
import type { RenderCache } from './render-cache';
import { RenderSlots } from './render-slots';
import type { ProjectSettingsResolver } from './project-settings';

export interface StorageOptions {
  /** What `/health` checks besides the service itself (see `ServiceOptions.dependencies`). */
  dependencies?: ServiceOptions['dependencies'];
  /** Secret that signs identities (DASH_INTERNAL_SECRET). */
  secret: string;
  /** Pools of project databases. The caller owns them; give `resolver` instead to let the app own its pools. */
  pools?: ProjectPools;
  /** Finds a project's connection string; the app then creates its pools and closes them on close. */
  resolver?: ConnectionResolver;
  logger?: boolean;
  /** Where file bytes go (closed with the app). */
  backend: ObjectBackend;
  /** Where transformed images are kept; without it every transformation is rendered anew. */
  renders?: RenderCache;
  /** How many image renders run at once and wait in line (by default 2 and 8). */
  renderSlots?: RenderSlots;
  /** A project's JWT secret and upload limit. */
  settings: ProjectSettingsResolver;
  /** Where bucket changes are recorded (the platform's audit log, see main.ts); nowhere when not given. */
  audit?: AuditRecorder;
  /** Ships a storage_logs event per request to the logs service (closed with the app); none when not given. */
  logs?: LogShipper;
}

export interface StorageContext {
  pools: ProjectPools;
  backend: ObjectBackend;
  renders: RenderCache | undefined;
  renderSlots: RenderSlots;
  settings: ProjectSettingsResolver;
  audit: AuditRecorder;
}

/** The storage service, not listening: `main.ts` listens, tests use `app.inject`. */
export function buildApp(options: StorageOptions): ServiceApp {
  const owned = options.pools === undefined;
  let pools = options.pools;
  if (!pools) {
    if (!options.resolver) throw new Error('storage needs either pools or a connection resolver');
    pools = new ProjectPools(options.resolver);
  }
  // The project's storage role: it reads the storage tables and acts as the caller's role, nothing more.
  const ctx: StorageContext = {
    pools: pools.as('storage'),
    backend: options.backend,
    renders: options.renders,
    renderSlots: options.renderSlots ?? new RenderSlots(),
    settings: options.settings,
    audit: options.audit ?? (async () => {}),
  };
  const app = createServiceApp({
    name: 'storage',
    secret: options.secret,
    logger: options.logger,
    dependencies: options.dependencies,
    // The storage API's callers: a project's API keys and its users' JWTs, checked with its JWT secret.
    verifyProjectKey: projectKeyVerifier(options.settings),
  });
  // Before the routes: each route takes the formatter in force when it is added.
  app.setSchemaErrorFormatter((errors, dataVar) => new Error(bucketSchemaErrorMessage(errors, dataVar)));
  registerReplyStatus(app);
  registerStorageLogs(app, options.logs);
  app.register(bucketRoutes, { ctx });
  app.register(objectRoutes, { ctx });
  // The storage API (storage-js's routes) answers refusals in Supabase Storage's words: its two plugins
  // share a scope whose hooks reword them (no fastify-plugin needed), apart from the dashboard's routes.
  app.register(async (api) => {
    registerApiErrorReplies(api);
    api.register(apiObjectRoutes, { ctx });
    api.register(apiBucketRoutes, { ctx });
  });
  registerApiNotFound(app);
  app.addHook('onClose', async () => {
    if (owned) await ctx.pools.closeAll();
    await ctx.backend.close();
  });
  return app;
}
