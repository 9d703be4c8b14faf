import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams, Timestamp } from './route';
import { access, Permission } from './permissions';
import { LOG_SOURCES } from './log-sources';
import { QueryColumn } from './sql-editor';

/**
 * The logs explorer (shell spec §2, Logs): one SELECT over the log tables, run by the logs service as a
 * role that can read only the `log_tables` views, over a time range the server applies.
 */

/** The tables a query may name: one per log source, and the event collections' events. */
export const LOG_EXPLORER_TABLES = [...LOG_SOURCES.map((s) => s.table), 'collection_events'] as const;
export type LogExplorerTable = (typeof LOG_EXPLORER_TABLES)[number];

/** Rows of a result sent to the browser; `truncated` says there were more. */
export const LOG_EXPLORER_MAX_ROWS = 1_000;
/** Each query's statement timeout. */
export const LOG_EXPLORER_STATEMENT_TIMEOUT_MS = 10_000;
/** Explorer queries one member may have running at once (in one logs process); the next is a 429. */
export const LOG_EXPLORER_MAX_RUNS_PER_MEMBER = 2;
export const LOG_EXPLORER_MAX_SQL_CHARS = 100_000;
/** A custom range spans at most this long (the longest retention). */
export const LOG_TIME_RANGE_MAX_DAYS = 31;
/** Recent queries kept per user and project. */
export const LOG_EXPLORER_RECENT_LIMIT = 50;

// ---------------------------------------------------------------------------------------------------------
// Time range

export const LOG_TIME_RANGE_PRESETS = [
  { value: '15m', label: 'Last 15 minutes', seconds: 15 * 60 },
  { value: '1h', label: 'Last hour', seconds: 60 * 60 },
  { value: '24h', label: 'Last 24 hours', seconds: 24 * 60 * 60 },
  { value: '7d', label: 'Last 7 days', seconds: 7 * 24 * 60 * 60 },
] as const;
export type LogTimeRangePreset = (typeof LOG_TIME_RANGE_PRESETS)[number]['value'];
export const DEFAULT_LOG_TIME_RANGE: LogTimeRange = { preset: '1h' };

const Preset = Type.Union(LOG_TIME_RANGE_PRESETS.map((p) => Type.Literal(p.value)));

/** A preset relative to now (resolved by the server when the query runs), or a custom from–to. */
export const LogTimeRange = Type.Union([
  Type.Object({ preset: Preset }, { additionalProperties: false }),
  Type.Object({ from: Timestamp, to: Timestamp }, { additionalProperties: false }),
]);
export type LogTimeRange = Static<typeof LogTimeRange>;

/** The same range as flat querystring fields, for GET routes: `range` (a preset) or `from` and `to`. */
export const LogTimeRangeQuery = Type.Object({
  range: Type.Optional(Preset),
  from: Type.Optional(Timestamp),
  to: Type.Optional(Timestamp),
});
export type LogTimeRangeQuery = Static<typeof LogTimeRangeQuery>;

export function logTimeRangeToQuery(range: LogTimeRange): LogTimeRangeQuery {
  return 'preset' in range ? { range: range.preset } : { from: range.from, to: range.to };
}

/** A querystring's range; with neither a preset nor both ends, the default. */
export function logTimeRangeFromQuery(query: LogTimeRangeQuery): LogTimeRange {
  if (query.from && query.to) return { from: query.from, to: query.to };
  return query.range ? { preset: query.range } : DEFAULT_LOG_TIME_RANGE;
}

export const LogTimeRangeMessages = {
  endBeforeStart: 'The time range must end after it starts',
  tooLong: `The time range can span at most ${LOG_TIME_RANGE_MAX_DAYS} days`,
};

/** The range's two ends; a message from `LogTimeRangeMessages` when a custom range is not valid. */
export function resolveLogTimeRange(range: LogTimeRange, now: Date = new Date()): { from: Date; to: Date } | { error: string } {
  if ('preset' in range) {
    const seconds = LOG_TIME_RANGE_PRESETS.find((p) => p.value === range.preset)!.seconds;
    return { from: new Date(now.getTime() - seconds * 1000), to: now };
  }
  const from = new Date(range.from);
  const to = new Date(range.to);
  if (!(to.getTime() > from.getTime())) return { error: LogTimeRangeMessages.endBeforeStart };
  if (to.getTime() - from.getTime() > LOG_TIME_RANGE_MAX_DAYS * 86_400_000) return { error: LogTimeRangeMessages.tooLong };
  return { from, to };
}

/** Histogram steps, seconds; a range uses the smallest that draws at most `HISTOGRAM_MAX_BUCKETS` bars. */
const HISTOGRAM_STEPS = [1, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];
export const HISTOGRAM_MAX_BUCKETS = 60;

export function histogramIntervalSeconds(from: Date, to: Date): number {
  const span = (to.getTime() - from.getTime()) / 1000;
  return HISTOGRAM_STEPS.find((step) => span / step <= HISTOGRAM_MAX_BUCKETS) ?? HISTOGRAM_STEPS[HISTOGRAM_STEPS.length - 1]!;
}

// ---------------------------------------------------------------------------------------------------------
// Queries

/** The guard's and the runner's messages (a 400 ErrorReply carries them). */
export const ExplorerMessages = {
  empty: 'The query is empty',
  onlySelect: 'Only SELECT queries are allowed',
  oneStatement: 'Only one statement is allowed',
  notLogTable: (name: string) => `Table ${name} is not a log table: use one of ${LOG_EXPLORER_TABLES.join(', ')}`,
  functionNotAllowed: (name: string) => `Function ${name} is not allowed in the logs explorer`,
  typeNotAllowed: (name: string) => `Type ${name} is not allowed in the logs explorer`,
  lockingNotAllowed: 'Locking clauses (FOR UPDATE, FOR SHARE) are not allowed',
  selectIntoNotAllowed: 'SELECT INTO is not allowed: the explorer only reads',
  notAllowed: (what: string) => `${what} is not allowed in the logs explorer`,
  timeout: `The query took longer than ${LOG_EXPLORER_STATEMENT_TIMEOUT_MS / 1000} seconds and was cancelled. Narrow the time range or add filters.`,
  tooManyRuns: `You already have ${LOG_EXPLORER_MAX_RUNS_PER_MEMBER} log queries running. Wait for one to finish, then run this one again.`,
  /** Postgres's temp_file_limit (`limit` as the server writes it, e.g. 128MB) stopped the query. */
  tooMuchTempSpace: (limit: string) =>
    `The query needed more than ${limit} of temporary disk space and was cancelled. Narrow the time range, add filters or sort fewer rows.`,
};

export const HistogramBucket = Type.Object({ start: Timestamp, count: Type.Integer({ minimum: 0 }) });
export type HistogramBucket = Static<typeof HistogramBucket>;

/**
 * Events per interval over the range, counted in the tables the query reads (all of them together),
 * or in edge_logs when it reads none. Every interval has a bucket, empty ones with count 0.
 */
export const EventsHistogram = Type.Object({
  interval_seconds: Type.Integer({ minimum: 1 }),
  tables: Type.Array(Type.String()),
  buckets: Type.Array(HistogramBucket),
});
export type EventsHistogram = Static<typeof EventsHistogram>;

export const ExplorerQueryBody = Type.Object(
  {
    sql: Type.String({ maxLength: LOG_EXPLORER_MAX_SQL_CHARS }),
    range: LogTimeRange,
    /** Counts per interval next to the rows (default true). */
    histogram: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ExplorerQueryBody = Static<typeof ExplorerQueryBody>;

export const ExplorerQueryResult = Type.Object({
  columns: Type.Array(QueryColumn),
  /** Arrays in column order (two columns of one name keep their own values); timestamps as ISO text. */
  rows: Type.Array(Type.Array(Type.Unknown())),
  /** Rows in `rows`; with `truncated`, the query had more than that. */
  row_count: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
  /** The range the query ran over (a preset resolved at run time). */
  range: Type.Object({ from: Timestamp, to: Timestamp }),
  histogram: Type.Union([EventsHistogram, Type.Null()]),
  duration_ms: Type.Number(),
});
export type ExplorerQueryResult = Static<typeof ExplorerQueryResult>;

export const RecentLogQuery = Type.Object({
  id: Type.String(),
  sql: Type.String(),
  ran_at: Timestamp,
});
export type RecentLogQuery = Static<typeof RecentLogQuery>;

export const explorerRoutes = {
  query: defineRoute({
    service: 'logs',
    method: 'POST',
    url: '/:ref/explorer/query',
    params: RefParams,
    body: ExplorerQueryBody,
    response: ExplorerQueryResult,
    access: access.project(Permission.AnalyticsRead),
  }),
  /** The caller's last queries in this project, newest first (a query run again moves to the top). */
  recent: defineRoute({
    service: 'logs',
    method: 'GET',
    url: '/:ref/explorer/recent',
    params: RefParams,
    response: Type.Object({ queries: Type.Array(RecentLogQuery) }),
    access: access.project(Permission.AnalyticsRead),
  }),
};

// ---------------------------------------------------------------------------------------------------------
// Templates

export interface LogQueryTemplate {
  id: string;
  name: string;
  description: string;
  /** The source it reads, for the templates page's grouping. */
  table: LogExplorerTable;
  sql: string;
}

/**
 * Ready-made explorer queries over the metadata keys the sources write (`LogMetadata`). Each runs in a
 * test against seeded events. The time range picker bounds them all (only "5xx in the last hour" adds its own).
 */
export const LOG_QUERY_TEMPLATES: readonly LogQueryTemplate[] = [
  {
    id: 'errors-by-status',
    name: 'Errors by status',
    description: 'API requests that failed (4xx and 5xx), counted by status code.',
    table: 'edge_logs',
    sql: `select (metadata->>'status')::int as status, count(*) as requests
from edge_logs
where (metadata->>'status')::int >= 400
group by 1
order by requests desc`,
  },
  {
    id: 'slowest-paths',
    name: 'Slowest paths',
    description: 'Paths by average response time, with their 95th percentile.',
    table: 'edge_logs',
    sql: `select metadata->>'path' as path,
  count(*) as requests,
  round(avg((metadata->>'duration_ms')::numeric), 1) as avg_ms,
  round(percentile_cont(0.95) within group (order by (metadata->>'duration_ms')::float8)::numeric, 1) as p95_ms
from edge_logs
group by 1
order by avg_ms desc
limit 20`,
  },
  {
    id: 'top-user-agents',
    name: 'Top callers',
    description: 'The user agents that send the most requests.',
    table: 'edge_logs',
    sql: `select coalesce(metadata->>'user_agent', '(none)') as user_agent, count(*) as requests
from edge_logs
group by 1
order by requests desc
limit 20`,
  },
  {
    id: 'requests-per-minute',
    name: 'Requests per minute',
    description: 'API requests per minute, with how many failed.',
    table: 'edge_logs',
    sql: `select date_trunc('minute', "timestamp") as minute,
  count(*) as requests,
  count(*) filter (where (metadata->>'status')::int >= 500) as server_errors
from edge_logs
group by 1
order by 1`,
  },
  {
    id: 'server-errors-last-hour',
    name: '5xx in the last hour',
    description: 'The latest requests that ended in a server error during the last hour.',
    table: 'edge_logs',
    sql: `select "timestamp", metadata->>'method' as method, metadata->>'path' as path, (metadata->>'status')::int as status, event_message
from edge_logs
where (metadata->>'status')::int >= 500
  and "timestamp" > now() - interval '1 hour'
order by "timestamp" desc
limit 100`,
  },
  {
    id: 'postgres-errors',
    name: 'Postgres errors',
    description: 'Errors the database reported, newest first, with the statement that caused them.',
    table: 'postgres_logs',
    sql: `select "timestamp", metadata->>'error_severity' as severity, metadata->>'sql_state_code' as code,
  event_message, metadata->>'statement' as statement
from postgres_logs
where metadata->>'error_severity' in ('ERROR', 'FATAL', 'PANIC')
order by "timestamp" desc
limit 100`,
  },
  {
    id: 'postgres-errors-by-code',
    name: 'Postgres errors by code',
    description: 'Database errors counted by SQLSTATE, with one message of each.',
    table: 'postgres_logs',
    sql: `select metadata->>'sql_state_code' as code, count(*) as errors, min(event_message) as example
from postgres_logs
where metadata->>'error_severity' in ('ERROR', 'FATAL', 'PANIC')
group by 1
order by errors desc`,
  },
  {
    id: 'slow-statements',
    name: 'Slow statements',
    description: 'Statements that ran longer than the server’s log_min_duration_statement, slowest first.',
    table: 'postgres_logs',
    sql: `select "timestamp", (metadata->>'duration_ms')::numeric as duration_ms, metadata->>'user_name' as user_name,
  coalesce(metadata->>'statement', event_message) as statement
from postgres_logs
where metadata->>'duration_ms' is not null
order by duration_ms desc
limit 50`,
  },
  {
    id: 'connections-by-user',
    name: 'Connections by user',
    description: 'Database connections authorized, by user and database.',
    table: 'postgres_logs',
    sql: `select coalesce(metadata->>'user_name', '(unknown)') as user_name, metadata->>'database_name' as database_name, count(*) as connections
from postgres_logs
where event_message like 'connection authorized%'
group by 1, 2
order by connections desc`,
  },
  {
    id: 'failed-sign-ins',
    name: 'Failed sign-ins',
    description: 'Sign-ins that failed, newest first, with the email and address tried.',
    table: 'auth_logs',
    sql: `select "timestamp", metadata->>'user_email' as email, metadata->>'ip' as ip, (metadata->>'status')::int as status, event_message
from auth_logs
where metadata->>'action' = 'login_failed'
order by "timestamp" desc
limit 100`,
  },
  {
    id: 'sign-ins-by-user',
    name: 'Sign-ins by user',
    description: 'Successful and failed sign-ins per email.',
    table: 'auth_logs',
    sql: `select coalesce(metadata->>'user_email', '(unknown)') as email,
  count(*) filter (where metadata->>'action' = 'login') as sign_ins,
  count(*) filter (where metadata->>'action' = 'login_failed') as failures,
  max("timestamp") as last_attempt
from auth_logs
where metadata->>'action' in ('login', 'login_failed')
group by 1
order by sign_ins desc, failures desc`,
  },
  {
    id: 'auth-events-by-action',
    name: 'Auth events by action',
    description: 'Sign-ins, sign-outs, MFA and token events, counted by action and level.',
    table: 'auth_logs',
    sql: `select metadata->>'action' as action, metadata->>'level' as level, count(*) as events
from auth_logs
group by 1, 2
order by events desc`,
  },
  {
    id: 'uploads-by-bucket',
    name: 'Uploads by bucket',
    description: 'Files uploaded and bytes received per bucket.',
    table: 'storage_logs',
    sql: `select metadata->>'bucket' as bucket, count(*) as uploads, sum((metadata->>'bytes')::int8)::int8 as bytes_in
from storage_logs
where metadata->>'direction' = 'in'
group by 1
order by bytes_in desc`,
  },
  {
    id: 'downloads-by-bucket',
    name: 'Bytes downloaded by bucket',
    description: 'Downloads and bytes sent per bucket.',
    table: 'storage_logs',
    sql: `select metadata->>'bucket' as bucket, count(*) as downloads, sum((metadata->>'bytes')::int8)::int8 as bytes_out
from storage_logs
where metadata->>'direction' = 'out'
group by 1
order by bytes_out desc`,
  },
  {
    id: 'storage-errors',
    name: 'Storage errors',
    description: 'Storage requests that failed, by operation and status.',
    table: 'storage_logs',
    sql: `select metadata->>'operation' as operation, (metadata->>'status')::int as status, count(*) as requests
from storage_logs
where (metadata->>'status')::int >= 400
group by 1, 2
order by requests desc`,
  },
  {
    id: 'rest-requests-by-role',
    name: 'REST requests by role',
    description: 'Data API requests per database role, with their average time.',
    table: 'postgrest_logs',
    sql: `select coalesce(metadata->>'role', '(none)') as role, count(*) as requests,
  round(avg((metadata->>'duration_ms')::numeric), 1) as avg_ms
from postgrest_logs
group by 1
order by requests desc`,
  },
];

// ---------------------------------------------------------------------------------------------------------
// Saved queries (hosted only): the caller's own, in the platform's content store as type `log_sql`.

export const SavedLogQueryMessages = {
  hostedOnly: 'Saved queries are only available on the hosted platform',
  saved: 'Saved query',
  saveFailed: (message: string) => `Failed to save query: ${message}`,
  renamed: 'Renamed query',
  deleted: 'Deleted query',
  deleteFailed: (message: string) => `Failed to delete query: ${message}`,
};

const SavedQueryName = Type.String({ minLength: 1, maxLength: 256, pattern: '\\S' });
const SavedQueryParams = Type.Composite([RefParams, Type.Object({ id: Type.String({ format: 'uuid' }) })]);

export const SavedLogQuery = Type.Object({
  id: Type.String(),
  name: Type.String(),
  sql: Type.String(),
  inserted_at: Timestamp,
  updated_at: Timestamp,
});
export type SavedLogQuery = Static<typeof SavedLogQuery>;

export const savedLogQueryRoutes = {
  list: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/content/log-sql',
    params: RefParams,
    response: Type.Object({ data: Type.Array(SavedLogQuery) }),
    access: access.project(Permission.AnalyticsRead),
  }),
  /** The browser names the id, so a retried create is the same query. */
  create: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/content/log-sql',
    params: RefParams,
    body: Type.Object({ id: Type.String({ format: 'uuid' }), name: SavedQueryName, sql: Type.String({ maxLength: LOG_EXPLORER_MAX_SQL_CHARS }) }, { additionalProperties: false }),
    response: SavedLogQuery,
    status: 201,
    access: access.project(Permission.UserContentSqlCreate),
  }),
  update: defineRoute({
    service: 'platform',
    method: 'PATCH',
    url: '/projects/:ref/content/log-sql/:id',
    params: SavedQueryParams,
    body: Type.Object(
      { name: Type.Optional(SavedQueryName), sql: Type.Optional(Type.String({ maxLength: LOG_EXPLORER_MAX_SQL_CHARS })) },
      { additionalProperties: false, minProperties: 1 },
    ),
    response: SavedLogQuery,
    access: access.project(Permission.UserContentSqlCreate),
  }),
  delete: defineRoute({
    service: 'platform',
    method: 'DELETE',
    url: '/projects/:ref/content/log-sql/:id',
    params: SavedQueryParams,
    response: Type.Object({ ok: Type.Literal(true) }),
    access: access.project(Permission.UserContentSqlCreate),
  }),
};
