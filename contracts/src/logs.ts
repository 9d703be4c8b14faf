import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams, Timestamp } from './route';
import { access, Permission } from './permissions';
import { LOGS_DEFAULT_LIMIT, LOGS_MAX_LIMIT } from './constants';

export const LogSource = Type.Union([Type.Literal('edge'), Type.Literal('service'), Type.Literal('postgres')]);
export type LogSource = Static<typeof LogSource>;

export const LogEventInput = Type.Object({
  source: LogSource,
  project_ref: Type.Union([Type.String({ maxLength: 64 }), Type.Null()]),
  timestamp: Timestamp,
  event_message: Type.String({ maxLength: 10_000 }),
  metadata: Type.Record(Type.String(), Type.Unknown()),
});
export type LogEventInput = Static<typeof LogEventInput>;

/** A request the gateway served, as the API gateway logs page lists it. */
export const EdgeLogEvent = Type.Object({
  id: Type.String(),
  timestamp: Timestamp,
  method: Type.String(),
  path: Type.String(),
  status: Type.Integer(),
  duration_ms: Type.Number(),
  event_message: Type.String(),
});
export type EdgeLogEvent = Static<typeof EdgeLogEvent>;

export const logsRoutes = {
  ingest: defineRoute({
    service: 'logs',
    method: 'POST',
    url: '/internal/events',
    body: Type.Object({ events: Type.Array(LogEventInput, { minItems: 1, maxItems: 1000 }) }),
    response: Type.Object({ accepted: Type.Integer() }),
    access: access.internal,
  }),
  edgeLogs: defineRoute({
    service: 'logs',
    method: 'GET',
    url: '/:ref/edge-logs',
    params: RefParams,
    querystring: Type.Object({
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LOGS_MAX_LIMIT, default: LOGS_DEFAULT_LIMIT })),
      /** Only events before this time, for paging back. */
      before: Type.Optional(Timestamp),
    }),
    response: Type.Object({ events: Type.Array(EdgeLogEvent) }),
    access: access.project(Permission.AnalyticsRead),
  }),
};
