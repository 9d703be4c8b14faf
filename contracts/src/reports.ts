import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams, Timestamp } from './route';
import { access, Permission } from './permissions';
import { LogTimeRangeQuery } from './log-explorer';

/**
 * Reports (shell spec §2 Reports, §3 Custom report, §7, §8; table-editor spec: the create-report dialog).
 * Built-in reports: `api-overview` and `storage` read the logs service's events, `database` reads the
 * project database's statistics through pg-meta. Custom reports are content items of type `report` in the
 * platform's content store, next to the SQL snippets whose results their blocks show.
 */

/** The spec's texts for reports (quoted verbatim). */
export const ReportMessages = {
  nameRequired: 'This field is required',
  nameRequiredMarker: 'Required',
  created: 'Successfully created new report',
  createFailed: (message: string) => `Failed to create report: ${message}`,
  updated: 'Successfully updated report',
  updateFailed: (message: string) => `Failed to update report: ${message}`,
  deleted: 'Successfully deleted report',
  deleteFailed: (message: string) => `Failed to delete report: ${message}`,
  movedNotice: 'Query Performance and the Project Linter have moved to the Database section.',
} as const;

/** The built-in reports, in menu order. `storage` needs the storage permission (spec §2). */
export const BUILT_IN_REPORTS = [
  { page: 'api-overview', label: 'API' },
  { page: 'database', label: 'Database' },
  { page: 'storage', label: 'Storage', permission: Permission.ProjectStorageAll },
] as const;

/** Rows in the top-paths and by-bucket tables. */
export const REPORT_TOP_ROWS = 10;

/** Width of a report's time buckets: picked from the range so a chart has tens of points, not thousands. */
export const ReportInterval = Type.Union([Type.Literal('minute'), Type.Literal('hour'), Type.Literal('day')]);
export type ReportInterval = Static<typeof ReportInterval>;

const HOUR_MS = 3_600_000;
/** Minutes up to 3 hours, hours up to 8 days (the 7-day preset draws 168 points), days beyond. */
export function reportInterval(from: Date, to: Date): ReportInterval {
  const span = to.getTime() - from.getTime();
  if (span <= 3 * HOUR_MS) return 'minute';
  if (span <= 8 * 24 * HOUR_MS) return 'hour';
  return 'day';
}

const Count = Type.Integer({ minimum: 0 });
/** Milliseconds; null for a bucket without requests. */
const Millis = Type.Union([Type.Number(), Type.Null()]);

/** The range the server resolved (a preset is relative to the request's time), as [from, to). */
const ResolvedRange = { from: Timestamp, to: Timestamp };

export const ApiOverviewReport = Type.Object({
  ...ResolvedRange,
  interval: ReportInterval,
  totals: Type.Object({ requests: Count, errors: Count }),
  /** One point per time bucket of the range, empty buckets included. Errors are responses with status 400 or above. */
  series: Type.Array(Type.Object({ time: Timestamp, requests: Count, errors: Count, p50_ms: Millis, p95_ms: Millis, p99_ms: Millis })),
  /** The most requested paths, most first. */
  top_paths: Type.Array(Type.Object({ path: Type.String(), requests: Count, errors: Count, avg_ms: Millis })),
  /** Requests per response status, most first. */
  status_codes: Type.Array(Type.Object({ status: Type.Integer(), requests: Count })),
});
export type ApiOverviewReport = Static<typeof ApiOverviewReport>;

export const StorageReport = Type.Object({
  ...ResolvedRange,
  interval: ReportInterval,
  totals: Type.Object({ requests: Count, bytes_in: Count, bytes_out: Count }),
  series: Type.Array(Type.Object({ time: Timestamp, requests: Count, bytes_in: Count, bytes_out: Count })),
  /** Per bucket, most requests first; `bucket` null for requests about no bucket (listing buckets). */
  buckets: Type.Array(Type.Object({ bucket: Type.Union([Type.String(), Type.Null()]), requests: Count, errors: Count, bytes_in: Count, bytes_out: Count })),
});
export type StorageReport = Static<typeof StorageReport>;

/** Milliseconds as the reports and query performance show them: `0.4 ms`, `12 ms`, `1.25 s`; `–` for none. */
export const formatMs = (ms: number | null): string => (ms === null ? '–' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 1 : 0)} ms`);

/** A statement as pg_stat_statements counts it (normalized text, constants as $n). */
export const SlowStatement = Type.Object({
  query: Type.String(),
  role: Type.String(),
  calls: Count,
  total_ms: Type.Number(),
  mean_ms: Type.Number(),
  max_ms: Type.Number(),
  rows: Count,
});
export type SlowStatement = Static<typeof SlowStatement>;

/**
 * pg_stat_statements' state: `ready` with the slowest statements, `not_loaded` when the server does not
 * preload the library, `not_installed` when it does but the extension is not created in the database.
 */
export const StatementsState = Type.Union([
  Type.Object({ state: Type.Literal('ready'), statements: Type.Array(SlowStatement) }),
  Type.Object({ state: Type.Literal('not_loaded') }),
  Type.Object({ state: Type.Literal('not_installed') }),
]);
export type StatementsState = Static<typeof StatementsState>;

/** How to get pg_stat_statements counting, per state that is not `ready` (the database report and query performance say it). */
export const STATEMENTS_SETUP: Record<Exclude<StatementsState['state'], 'ready'>, { title: string; steps: string[] }> = {
  not_loaded: {
    title:
      'pg_stat_statements is not loaded by the Postgres server. To see the slowest statements, preload it and restart the server, then create the extension as a superuser:',
    steps: ["shared_preload_libraries = 'pg_stat_statements'   # postgresql.conf, then restart", 'create extension pg_stat_statements with schema extensions;'],
  },
  not_installed: {
    title: 'The server loads pg_stat_statements, but the extension is not created in this database. A superuser creates it with:',
    steps: ['create extension pg_stat_statements with schema extensions;'],
  },
};

export const DatabaseReport = Type.Object({
  database_size_bytes: Count,
  max_connections: Count,
  /** Backends connected to the project database, per state (`active`, `idle`, `idle in transaction`, ...). */
  connections: Type.Array(Type.Object({ state: Type.String(), count: Count })),
  /** Share of block reads served from shared buffers since the statistics were reset; null before any read. */
  cache_hit_ratio: Type.Object({ tables: Type.Union([Type.Number(), Type.Null()]), indexes: Type.Union([Type.Number(), Type.Null()]) }),
  largest_tables: Type.Array(
    Type.Object({ schema: Type.String(), name: Type.String(), total_bytes: Count, table_bytes: Count, index_bytes: Count, row_estimate: Type.Integer() }),
  ),
  statements: StatementsState,
});
export type DatabaseReport = Static<typeof DatabaseReport>;

/* Custom reports */

/** A block of a custom report: a saved snippet's first result, as a table or a chart of two of its columns. */
export const ReportBlock = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    snippet_id: Type.String({ format: 'uuid' }),
    view: Type.Union([Type.Literal('table'), Type.Literal('chart')]),
    chart: Type.Optional(
      Type.Object(
        {
          type: Type.Union([Type.Literal('line'), Type.Literal('bar')]),
          x: Type.String({ minLength: 1, maxLength: 256 }),
          y: Type.String({ minLength: 1, maxLength: 256 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ReportBlock = Static<typeof ReportBlock>;

export const REPORT_MAX_BLOCKS = 50;

/** The report's content (table-editor spec §3): new reports start at 7 days to today by day. */
export const ReportContent = Type.Object(
  {
    schema_version: Type.Literal(1),
    period_start: Type.String({ maxLength: 40 }),
    period_end: Type.String({ maxLength: 40 }),
    interval: Type.String({ maxLength: 40 }),
    /** The blocks in display order. */
    layout: Type.Array(ReportBlock, { maxItems: REPORT_MAX_BLOCKS }),
  },
  { additionalProperties: false },
);
export type ReportContent = Static<typeof ReportContent>;

export const NEW_REPORT_CONTENT: ReportContent = { schema_version: 1, period_start: '7d', period_end: 'today', interval: '1d', layout: [] };

const ReportName = Type.String({ minLength: 1, maxLength: 256, pattern: '\\S' });
const ReportDescription = Type.Union([Type.String({ maxLength: 1000 }), Type.Null()]);
const ReportId = Type.String({ format: 'uuid' });

export const CustomReport = Type.Object({
  id: ReportId,
  type: Type.Literal('report'),
  project_id: Type.Integer(),
  name: Type.String(),
  description: ReportDescription,
  visibility: Type.Literal('project'),
  owner_id: Type.String(),
  content: ReportContent,
  inserted_at: Timestamp,
  updated_at: Timestamp,
});
export type CustomReport = Static<typeof CustomReport>;

const ReportParams = Type.Composite([RefParams, Type.Object({ id: ReportId })]);

export const reportRoutes = {
  apiOverview: defineRoute({
    service: 'logs',
    method: 'GET',
    url: '/:ref/reports/api-overview',
    params: RefParams,
    querystring: LogTimeRangeQuery,
    response: ApiOverviewReport,
    access: access.project(Permission.AnalyticsRead),
  }),
  storage: defineRoute({
    service: 'logs',
    method: 'GET',
    url: '/:ref/reports/storage',
    params: RefParams,
    querystring: LogTimeRangeQuery,
    response: StorageReport,
    access: access.project(Permission.ProjectStorageAll),
  }),
  /** Read from the project database's statistics as the project admin role, in a read-only transaction. */
  database: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/reports/database',
    params: RefParams,
    response: DatabaseReport,
    access: access.project(Permission.AnalyticsRead),
  }),
  /** The project's custom reports (they are project content: every member sees them), newest change first. */
  listReports: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/content/reports',
    params: RefParams,
    response: Type.Object({ data: Type.Array(CustomReport) }),
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  getReport: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/content/reports/:id',
    params: ReportParams,
    response: CustomReport,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /**
   * The browser names the id, so a retried create is the same report. The answer is a list whose first
   * item is the report (table-editor spec §7).
   */
  createReport: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/content/reports',
    params: RefParams,
    body: Type.Object(
      { id: ReportId, name: ReportName, description: Type.Optional(ReportDescription), content: Type.Optional(ReportContent) },
      { additionalProperties: false },
    ),
    response: Type.Array(CustomReport, { minItems: 1, maxItems: 1 }),
    status: 201,
    access: access.project(Permission.UserContentSqlCreate),
  }),
  updateReport: defineRoute({
    service: 'platform',
    method: 'PATCH',
    url: '/projects/:ref/content/reports/:id',
    params: ReportParams,
    body: Type.Object(
      { name: Type.Optional(ReportName), description: Type.Optional(ReportDescription), content: Type.Optional(ReportContent) },
      { additionalProperties: false, minProperties: 1 },
    ),
    response: CustomReport,
    access: access.project(Permission.UserContentSqlCreate),
  }),
  /** Deletes the project's reports among `ids` (spec §7: a list of ids); 404 "Content not found" when none is. */
  deleteReports: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/content/reports/delete',
    params: RefParams,
    body: Type.Object({ ids: Type.Array(ReportId, { minItems: 1, maxItems: 1000, uniqueItems: true }) }, { additionalProperties: false }),
    response: Type.Object({ deleted: Type.Array(Type.String()) }),
    access: access.project(Permission.UserContentSqlCreate),
  }),
};
