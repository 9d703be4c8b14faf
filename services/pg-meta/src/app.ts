import { SQL_EDITOR_MAX_ROWS, SQL_EDITOR_STATEMENT_TIMEOUT_MS, type SqlEditorSettings } from '@dash/contracts';
import { createServiceApp, ProjectPools, type AuditRecorder, type ConnectionResolver, type ServiceApp } from '@dash/service-kit';
import { registerAdvisorRoutes } from './routes/advisors';
import { registerApiDocsRoutes } from './routes/api-docs';
import { registerAuthUserRoutes } from './routes/auth-users';
import { registerColumnPrivilegeRoutes } from './routes/column-privileges';
import { registerColumnRoutes } from './routes/columns';
import { registerCsvRoutes } from './routes/csv';
import { registerDatabasePlatformRoutes } from './routes/database-platform';
import { registerEntityRoutes } from './routes/entities';
import { registerExtensionRoutes } from './routes/extensions';
import { registerFunctionRoutes } from './routes/functions';
import { registerIndexRoutes } from './routes/indexes';
import { registerPolicyRoutes } from './routes/policies';
import { registerPublicationRoutes } from './routes/publications';
import { registerReportRoutes } from './routes/reports';
import { registerRoleRoutes } from './routes/roles';
import { registerRoleWriteRoutes } from './routes/roles-write';
import { registerRowRoutes } from './routes/rows';
import { registerSchemaRoutes } from './routes/schemas';
import { registerSqlCatalogRoutes } from './routes/sql-catalog';
import { registerSqlRunRoutes } from './routes/sql-run';
import { registerTableRoutes } from './routes/tables';
import { registerTriggerRoutes } from './routes/triggers';
import { registerTypeRoutes } from './routes/types';
import { registerViewRoutes } from './routes/views';
import { loadExpressionParser } from './sql/ddl/expression';

export interface PgMetaOptions {
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
  const app = createServiceApp({ name: 'pg-meta', secret: options.secret, logger: options.logger });
  // The DDL builders check user expressions with Postgres's parser, synchronously: load it before serving.
  app.addHook('onReady', loadExpressionParser);
  registerSchemaRoutes(app, ctx);
  registerSqlCatalogRoutes(app, ctx);
  registerTableRoutes(app, ctx);
  registerColumnRoutes(app, ctx);
  registerViewRoutes(app, ctx);
  registerRoleRoutes(app, ctx);
  registerRoleWriteRoutes(app, ctx);
  registerPolicyRoutes(app, ctx);
  registerEntityRoutes(app, ctx);
  registerSqlRunRoutes(app, ctx);
  registerRowRoutes(app, ctx);
  registerCsvRoutes(app, ctx);
  registerReportRoutes(app, ctx);
  registerFunctionRoutes(app, ctx);
  registerTriggerRoutes(app, ctx);
  registerTypeRoutes(app, ctx);
  registerExtensionRoutes(app, ctx);
  registerIndexRoutes(app, ctx);
  registerPublicationRoutes(app, ctx);
  registerColumnPrivilegeRoutes(app, ctx);
  registerDatabasePlatformRoutes(app, ctx);
  registerAuthUserRoutes(app, ctx);
  registerApiDocsRoutes(app, ctx);
  registerAdvisorRoutes(app, ctx);
  if (owned) app.addHook('onClose', async () => ctx.pools.closeAll());
  return app;
}
