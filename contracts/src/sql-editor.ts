import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { defineRoute, Ok, RefParams, Timestamp } from './route';
import { access, Permission } from './permissions';
import { SQL_EDITOR_MAX_QUERY_BYTES } from './constants';

/**
 * The SQL editor's routes on pg-meta: running the user's SQL as written (the one place the browser sends
 * SQL), cancelling a run, explaining, exporting a whole result, the completion catalog, suggested names,
 * and the project database's running queries.
 */

/** The database roles the editor's role picker offers; `postgres` is the project admin role (no impersonation). */
export const SQL_EDITOR_ROLES = ['postgres', 'anon', 'authenticated', 'service_role'] as const;
export type SqlEditorRoleName = (typeof SQL_EDITOR_ROLES)[number];

/** Who the text runs as. `authenticated` takes the claims `auth.uid()` and `auth.jwt()` read (sub, email, ...). */
export const SqlRunAs = Type.Object(
  {
    role: Type.Union(SQL_EDITOR_ROLES.map((r) => Type.Literal(r))),
    claims: Type.Optional(Type.Record(Type.String({ maxLength: 200 }), Type.Unknown())),
  },
  { additionalProperties: false },
);
export type SqlRunAs = Static<typeof SqlRunAs>;

/** A run the browser names itself (a UUID), so it can cancel it while the request is still open. */
const RunId = Type.String({ format: 'uuid' });

export const QueryColumn = Type.Object({ name: Type.String(), type: Type.String() });
export type QueryColumn = Static<typeof QueryColumn>;

/**
 * One statement's result. Rows are arrays in column order, so two columns of one name (`select 1 as a,
 * 2 as a`, or `select *` over a join) keep their own values.
 */
export const StatementResult = Type.Object({
  /** The command tag's verb: SELECT, INSERT, CREATE, ... */
  command: Type.String(),
  columns: Type.Array(QueryColumn),
  rows: Type.Array(Type.Array(Type.Unknown())),
  /** Rows returned or affected, as Postgres counted them (null when the command reports none). */
  rowCount: Type.Union([Type.Integer(), Type.Null()]),
  /** More rows existed than the run returns (`SQL_EDITOR_MAX_ROWS` per result). */
  truncated: Type.Boolean(),
});
export type StatementResult = Static<typeof StatementResult>;

/** A NOTICE, WARNING, INFO or LOG message raised while the text ran (RAISE NOTICE, DDL notes ...). */
export const QueryNotice = Type.Object({
  severity: Type.String(),
  message: Type.String(),
  detail: Type.Optional(Type.String()),
  hint: Type.Optional(Type.String()),
});
export type QueryNotice = Static<typeof QueryNotice>;

export const QueryRun = Type.Object({
  /** One entry per statement that ran, in order (utility statements included, with no columns). */
  results: Type.Array(StatementResult),
  notices: Type.Array(QueryNotice),
  durationMs: Type.Number(),
  /** The database role the text ran as (`current_user` at the start of the run). */
  ranAs: Type.String(),
});
export type QueryRun = Static<typeof QueryRun>;

/* A statement error is a 400 ErrorReply (`route.ts`) with Postgres's SQLSTATE in `code`, and its
 * `detail`, `hint` and `position` (1-based character offset into the text that was sent) where it has them. */

const SqlText = Type.String({ maxLength: SQL_EDITOR_MAX_QUERY_BYTES });

/** A node of `EXPLAIN (FORMAT JSON)`: Postgres's own keys ("Node Type", "Total Cost", "Plans", ...). */
export const PlanNode: TSchema = Type.Recursive(
  (Self) =>
    Type.Object(
      {
        'Node Type': Type.String(),
        'Startup Cost': Type.Number(),
        'Total Cost': Type.Number(),
        'Plan Rows': Type.Number(),
        'Plan Width': Type.Number(),
        'Actual Startup Time': Type.Optional(Type.Number()),
        'Actual Total Time': Type.Optional(Type.Number()),
        'Actual Rows': Type.Optional(Type.Number()),
        'Actual Loops': Type.Optional(Type.Number()),
        Plans: Type.Optional(Type.Array(Self)),
      },
      { additionalProperties: true },
    ),
  { $id: 'PlanNode' },
);
export interface PlanNode {
  'Node Type': string;
  'Startup Cost': number;
  'Total Cost': number;
  'Plan Rows': number;
  'Plan Width': number;
  'Actual Startup Time'?: number;
  'Actual Total Time'?: number;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

export const QueryPlan = Type.Object({
  plan: PlanNode,
  planningTimeMs: Type.Optional(Type.Number()),
  executionTimeMs: Type.Optional(Type.Number()),
});
export type QueryPlan = Omit<Static<typeof QueryPlan>, 'plan'> & { plan: PlanNode };

export const ExportFormat = Type.Union([Type.Literal('csv'), Type.Literal('json')]);
export type ExportFormat = Static<typeof ExportFormat>;

/** The catalog the editor completes from: schemas, tables and views with their columns, functions. */
export const CompletionCatalog = Type.Object({
  schemas: Type.Array(Type.String()),
  relations: Type.Array(
    Type.Object({
      schema: Type.String(),
      name: Type.String(),
      kind: Type.Union([Type.Literal('table'), Type.Literal('view')]),
      columns: Type.Array(Type.Object({ name: Type.String(), type: Type.String() })),
    }),
  ),
  functions: Type.Array(Type.Object({ schema: Type.String(), name: Type.String(), args: Type.String(), returns: Type.String() })),
});
export type CompletionCatalog = Static<typeof CompletionCatalog>;

/** A query running on the project database (spec: pid, query, query_start). */
export const RunningQuery = Type.Object({ pid: Type.Integer(), query: Type.String(), query_start: Timestamp });
export type RunningQuery = Static<typeof RunningQuery>;

export const sqlEditorRoutes = {
  /**
   * Runs the text as written, in one transaction with the project's statement timeout, as the member's
   * database role: the project admin role (or `runAs`) for members with tenant_sql_query, the project's
   * read-only role for the others. Every statement's result comes back; the whole run rolls back on error.
   */
  run: defineRoute({
    service: 'pg-meta',
    method: 'POST',
    url: '/:ref/sql/run',
    params: RefParams,
    body: Type.Object(
      {
        query: SqlText,
        runId: Type.Optional(RunId),
        runAs: Type.Optional(SqlRunAs),
        /** A read-only transaction that always rolls back (a custom report's blocks: showing one must not write). */
        readOnly: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    response: QueryRun,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /** Cancels the caller's own run with that id (its backend's current statement); false when none is running. */
  cancel: defineRoute({
    service: 'pg-meta',
    method: 'POST',
    url: '/:ref/sql/runs/:runId/cancel',
    params: Type.Composite([RefParams, Type.Object({ runId: RunId })]),
    response: Type.Object({ cancelled: Type.Boolean() }),
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /** EXPLAIN (FORMAT JSON[, ANALYZE]) of one statement, in a transaction that is always rolled back. */
  explain: defineRoute({
    service: 'pg-meta',
    method: 'POST',
    url: '/:ref/sql/explain',
    params: RefParams,
    body: Type.Object(
      { query: SqlText, analyze: Type.Boolean(), runAs: Type.Optional(SqlRunAs) },
      { additionalProperties: false },
    ),
    response: QueryPlan,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /**
   * Step one of an export: checks the text is one statement that reads (it re-runs, in a read-only
   * transaction) and returns a short-lived token for the caller. Step two is a plain GET the browser
   * navigates to, so the download streams to disk.
   */
  prepareExport: defineRoute({
    service: 'pg-meta',
    method: 'POST',
    url: '/:ref/sql/exports',
    params: RefParams,
    body: Type.Object({ query: SqlText, format: ExportFormat, runAs: Type.Optional(SqlRunAs) }, { additionalProperties: false }),
    response: Type.Object({ token: Type.String(), expiresInSeconds: Type.Integer() }),
    status: 201,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /** The whole result as `results.csv` or `results.json`, streamed from the server. */
  downloadExport: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/sql/exports/:token',
    params: Type.Composite([RefParams, Type.Object({ token: Type.String({ minLength: 16, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }) })]),
    response: Type.String(),
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  completions: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/sql/completions',
    params: RefParams,
    response: CompletionCatalog,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /**
   * A snippet name and a one-line description derived from the SQL with the Postgres parser (no model,
   * nothing leaves the service): "Create table orders", "Users by email".
   */
  suggestTitle: defineRoute({
    service: 'pg-meta',
    method: 'POST',
    url: '/:ref/sql/title',
    params: RefParams,
    body: Type.Object({ sql: SqlText }, { additionalProperties: false }),
    response: Type.Object({ title: Type.String(), description: Type.String() }),
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  listRunningQueries: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/sql/running-queries',
    params: RefParams,
    response: Type.Object({ queries: Type.Array(RunningQuery) }),
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  /** pg_terminate_backend of a backend of the project's own database; 404 when no such query runs there. */
  abortRunningQuery: defineRoute({
    service: 'pg-meta',
    method: 'DELETE',
    url: '/:ref/sql/running-queries/:pid',
    params: Type.Composite([RefParams, Type.Object({ pid: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) })]),
    response: Ok,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
};
