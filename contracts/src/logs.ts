import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams, Timestamp } from './route';
import { access, Permission } from './permissions';
import { LOGS_DEFAULT_LIMIT, LOGS_MAX_LIMIT } from './constants';
import { LOG_SOURCES, type LogSourceName } from './log-sources';

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

/** The sources a page lists (LOG_SOURCES), by their stored `source` value. */
export const LogSourceNameSchema = literals(LOG_SOURCES.map((s) => s.source));

/** What the ingest route accepts: every page source, and `service` (the services' own events). */
export const LogSource = Type.Union([LogSourceNameSchema, Type.Literal('service')]);
export type LogSource = Static<typeof LogSource>;

export const LogEventInput = Type.Object({
  source: LogSource,
  project_ref: Type.Union([Type.String({ maxLength: 64 }), Type.Null()]),
  timestamp: Timestamp,
  event_message: Type.String({ maxLength: 10_000 }),
  metadata: Type.Record(Type.String(), Type.Unknown()),
});
export type LogEventInput = Static<typeof LogEventInput>;

/**
 * How deep an event's metadata may nest (objects and arrays), for the services' events and collection
 * ingest alike: deeper JSON could not be written back out (JSON.stringify recurses) nor stored by Postgres.
 */
export const LOG_METADATA_MAX_DEPTH = 64;
export const LogIngestMessages = {
  metadataTooDeep: (event: number) => `Event ${event}: metadata is nested more than ${LOG_METADATA_MAX_DEPTH} levels deep`,
} as const;

/** Retention when a project has set none, and the bounds of the setting, in days. */
export const LOG_RETENTION_DEFAULT_DAYS = 7;
export const LOG_RETENTION_MAX_DAYS = 90;

/**
 * Which filters each source's page offers. `level` names the metadata key the level filter compares
 * (exactly) and the values offered; `status` filters `metadata.status` by class (`4xx`) or exact code;
 * `method` compares `metadata.method`.
 */
export const LOG_SOURCE_FILTERS: Record<LogSourceName, { level?: { key: string; values: readonly string[] }; status?: true; method?: true }> = {
  edge: { status: true, method: true },
  postgres: { level: { key: 'error_severity', values: ['LOG', 'WARNING', 'ERROR', 'FATAL', 'PANIC'] } },
  postgrest: { status: true, method: true },
  pooler: { level: { key: 'level', values: ['info', 'warning', 'error'] } },
  auth: { level: { key: 'level', values: ['info', 'warning', 'error'] }, status: true },
  storage: { status: true, method: true },
  realtime: { level: { key: 'level', values: ['info', 'warning', 'error'] } },
};

/** HTTP methods the method filter offers. */
export const LOG_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/** One stored event of a source: what it was, and the metadata its writer recorded (see `LogMetadata`). */
export const SourceEvent = Type.Object({
  id: Type.String(),
  timestamp: Timestamp,
  event_message: Type.String(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
});
export type SourceEvent = Static<typeof SourceEvent>;

export const SourceEventParams = Type.Composite([RefParams, Type.Object({ source: LogSourceNameSchema })]);

export const SourceEventsQuery = Type.Object(
  {
    /** Text the event message contains (case-insensitive, taken literally: `%` and `_` match themselves). */
    search: Type.Optional(Type.String({ maxLength: 500 })),
    level: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    /** A class (`2xx`…`5xx`) or an exact code. */
    status: Type.Optional(Type.String({ pattern: '^([1-5]xx|[1-5][0-9]{2})$' })),
    method: Type.Optional(literals(LOG_METHODS)),
    /** The range [from, to); without them, the project's whole retention up to now. */
    from: Type.Optional(Timestamp),
    to: Type.Optional(Timestamp),
    /** Paging back: only events before this (timestamp, id), the `next` of the previous page. */
    before: Type.Optional(Timestamp),
    before_id: Type.Optional(Type.String({ format: 'uuid' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LOGS_MAX_LIMIT, default: LOGS_DEFAULT_LIMIT })),
  },
  { additionalProperties: false },
);
export type SourceEventsQuery = Static<typeof SourceEventsQuery>;

export const SourceEventsPage = Type.Object({
  events: Type.Array(SourceEvent),
  /** The cursor of the next (older) page; null when this page is the last. */
  next: Type.Union([Type.Object({ before: Timestamp, before_id: Type.String() }), Type.Null()]),
  /** How many days of events the project keeps (older ones are never returned). */
  retention_days: Type.Integer(),
});
export type SourceEventsPage = Static<typeof SourceEventsPage>;

export const LogRetention = Type.Object({
  retention_days: Type.Integer({ minimum: 1, maximum: LOG_RETENTION_MAX_DAYS }),
});
export type LogRetention = Static<typeof LogRetention>;

/**
 * Source pages need analytics read; the auth, storage and realtime sources also need their area's
 * permission (LOG_SOURCES `permission`), checked in the handler since it depends on `:source`.
 */
export const logsRoutes = {
  ingest: defineRoute({
    service: 'logs',
    method: 'POST',
    url: '/internal/events',
    body: Type.Object({ events: Type.Array(LogEventInput, { minItems: 1, maxItems: 1000 }) }),
    response: Type.Object({ accepted: Type.Integer() }),
    access: access.internal,
  }),
  sourceEvents: defineRoute({
    service: 'logs',
    method: 'GET',
    url: '/:ref/sources/:source/events',
    params: SourceEventParams,
    querystring: SourceEventsQuery,
    response: SourceEventsPage,
    access: access.project(Permission.AnalyticsRead),
  }),
  sourceEvent: defineRoute({
    service: 'logs',
    method: 'GET',
    url: '/:ref/sources/:source/events/:id',
    params: Type.Composite([SourceEventParams, Type.Object({ id: Type.String({ format: 'uuid' }) })]),
    /** The event's timestamp (from the list) lets the lookup read one day's partition. */
    querystring: Type.Object({ timestamp: Type.Optional(Timestamp) }, { additionalProperties: false }),
    response: SourceEvent,
    access: access.project(Permission.AnalyticsRead),
  }),
  retention: defineRoute({
    service: 'logs',
    method: 'GET',
    url: '/:ref/logs-retention',
    params: RefParams,
    response: LogRetention,
    access: access.project(Permission.AnalyticsRead),
  }),
  setRetention: defineRoute({
    service: 'logs',
    method: 'PUT',
    url: '/:ref/logs-retention',
    params: RefParams,
    body: LogRetention,
    response: LogRetention,
    access: access.project(Permission.ProjectAdminWrite),
  }),
};

/**
 * Internal (platform): each project's database name, so the logs service can tell which project a line
 * of the Postgres server's log is about.
 */
export const projectDatabasesRoute = defineRoute({
  service: 'platform',
  method: 'GET',
  url: '/internal/projects/databases',
  response: Type.Object({ projects: Type.Array(Type.Object({ ref: Type.String(), database: Type.String() })) }),
  access: access.internal,
});

export const LogsMessages = {
  poolerHostedOnly: 'Pooler logs are only available on the hosted platform',
  eventNotFound: 'Log event not found',
  rangeReversed: '"from" must be before "to"',
  cursorIncomplete: '"before" and "before_id" go together',
  levelUnknown: (values: readonly string[]) => `The level must be one of ${values.join(', ')}`,
  noFilter: (filter: string, label: string) => `${label} logs have no ${filter} filter`,
} as const;
