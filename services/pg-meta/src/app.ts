import { SQL_EDITOR_MAX_ROWS, SQL_EDITOR_STATEMENT_TIMEOUT_MS, type SqlEditorSettings } from '@dash/contracts';
import { createServiceApp, type ServiceOptions, ProjectPools, type AuditRecorder, type ConnectionResolver, type ServiceApp } from '@dash/service-kit';
import { advisorRoutesPlugin } from './routes/advisors';
import { apiDocsRoutesPlugin } from './routes/api-docs';
import { authUserRoutes } from './routes/auth-users';
import { columnPrivilegeRoutes } from './routes/column-privileges';
import { columnRoutes } from './routes/columns';
import { csvRoutes } from './routes/csv';
import { databasePlatformRoutesPlugin } from './routes/database-platform';
import { entityRoutes } from './routes/entities';
import { extensionRoutes } from './routes/extensions';
import { functionRoutes } from './routes/functions';
import { indexRoutes } from './routes/indexes';
import { policyRoutes } from './routes/policies';
import { publicationRoutes } from './routes/publications';
import { reportRoutesPlugin } from './routes/reports';
import { roleRoutes } from './routes/roles';
import { roleWriteRoutes } from './routes/roles-write';
import { rowRoutes } from './routes/rows';
import { schemaRoutes } from './routes/schemas';
import { sqlCatalogRoutes } from './routes/sql-catalog';
import { sqlRunRoutes } from './routes/sql-run';
import { tableRoutes } from './routes/tables';
import { triggerRoutes } from './routes/triggers';
import { typeRoutes } from './routes/types';
import { viewRoutes } from './routes/views';
import { loadExpressionParser } from './sql/ddl/expression';

export interface PgMetaOptions {
  /** What `/health` checks besides the service itself (see `ServiceOptions.dependencies`). */
  dependencies?: ServiceOptions['dependencies'];
  /** Secret that signs identities (DASH_INTERNAL_SECRET). */
  secret: string;
  /** Pools of project databases. The caller owns them; give `resolver` instead to let the app own its pools. */
  pools?: ProjectPools;
  /** Finds a project's connection string; the app then creates its pools and closes them on close. */
  resolver?: ConnectionResolver;
  logger?: boolean;
  /** SQL editor limits: rows per result (the contracts' constant by default). */
  sqlEditor?: { maxRows?: number };
  /** A project's SQL editor settings (the platform keeps them); the default statement timeout without one. */
  sqlEditorSettings?: (ref: string) => Promise<SqlEditorSettings>;
  /** Where policy changes are recorded (the platform's audit log, see main.ts); nowhere when not given. */
  audit?: AuditRecorder;
}

export interface PgMetaContext {
  pools: ProjectPools;
  sqlEditor: { maxRows: number; settings: (ref: string) => Promise<SqlEditorSettings> };
  audit: AuditRecorder;
}

/** The pg-meta service, not listening: `main.ts` listens, tests use `app.inject`. */
export function buildApp(options: PgMetaOptions): ServiceApp {
  const owned = options.pools === undefined;
  let pools = options.pools;
  if (!pools) {
    if (!options.resolver) throw new Error('pg-meta needs either pools or a connection resolver');
    pools = new ProjectPools(options.resolver);
  }
  const ctx: PgMetaContext = {
    pools,
    sqlEditor: {
      maxRows: options.sqlEditor?.maxRows ?? SQL_EDITOR_MAX_ROWS,
      settings: options.sqlEditorSettings ?? (async () => ({ statementTimeoutMs: SQL_EDITOR_STATEMENT_TIMEOUT_MS })),
    },
    audit: options.audit ?? (async () => {}),
  };
  const app = createServiceApp({ name: 'pg-meta', secret: options.secret, logger: options.logger, dependencies: options.dependencies });
  // The DDL builders check user expressions with Postgres's parser, synchronously: load it before serving.
  app.addHook('onReady', loadExpressionParser);
  // Each route file is an encapsulated plugin: what it adds to its instance (the CSV body parser) serves only
  // its own routes. Fastify loads them at ready (listen, inject), so building stays synchronous.
  app.register(schemaRoutes, { ctx });
  app.register(sqlCatalogRoutes, { ctx });
  app.register(tableRoutes, { ctx });
  app.register(columnRoutes, { ctx });
  app.register(viewRoutes, { ctx });
  app.register(roleRoutes, { ctx });
  app.register(roleWriteRoutes, { ctx });
  app.register(policyRoutes, { ctx });
  app.register(entityRoutes, { ctx });
  app.register(sqlRunRoutes, { ctx });
  app.register(rowRoutes, { ctx });
  app.register(csvRoutes, { ctx });
  app.register(reportRoutesPlugin, { ctx });
  app.register(functionRoutes, { ctx });
  app.register(triggerRoutes, { ctx });
  app.register(typeRoutes, { ctx });
  app.register(extensionRoutes, { ctx });
  app.register(indexRoutes, { ctx });
  app.register(publicationRoutes, { ctx });
  app.register(columnPrivilegeRoutes, { ctx });
  app.register(databasePlatformRoutesPlugin, { ctx });
  app.register(authUserRoutes, { ctx });
  app.register(apiDocsRoutesPlugin, { ctx });
  app.register(advisorRoutesPlugin, { ctx });
  if (owned) app.addHook('onClose', async () => ctx.pools.closeAll());
  return app;
}
