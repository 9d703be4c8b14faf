import type { FastifyInstance } from 'fastify';
import {
  LOG_SOURCE_FILTERS,
  LOG_SOURCES,
  LogsMessages,
  logsRoutes,
  roleHasPermission,
  ServiceMessages,
  type LogSourceName,
  type SourceEvent,
} from '@dash/contracts';
import { addRoute, badRequest, forbidden, notFound, userOf } from '@dash/service-kit';
import { retentionFloor, retentionQuery } from '../sql/retention';
import { sourceEventQuery, sourceEventsQuery } from '../sql/source-events';
import type { LogsContext } from '../app';

interface Row {
  id: string;
  timestamp: Date;
  event_message: string | null;
  metadata: Record<string, unknown> | null;
}

const toEvent = (row: Row): SourceEvent => ({
  id: row.id,
  timestamp: row.timestamp.toISOString(),
  event_message: row.event_message ?? '',
  metadata: row.metadata ?? {},
});

/**
 * The per-source log pages' reads. Beyond analytics read (the route's rule), a source gated by an
 * area's permission (auth, storage, realtime) needs it too, and a hosted-only source (pooler) does not
 * exist in a self-hosted deployment.
 */
export async function sourceEventRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: LogsContext }): Promise<void> {
  const checkSource = (identity: Parameters<typeof userOf>[0], ref: string, source: LogSourceName) => {
    const def = LOG_SOURCES.find((s) => s.source === source)!;
    if ('hostedOnly' in def && def.hostedOnly && ctx.mode === 'self-hosted') throw notFound(LogsMessages.poolerHostedOnly);
    if ('permission' in def && !roleHasPermission(userOf(identity).projects[ref], def.permission)) throw forbidden(ServiceMessages.forbidden);
    return def;
  };
  const retentionDays = async (ref: string) => (await ctx.pool.query<{ retention_days: number }>(retentionQuery(ref))).rows[0]!.retention_days;

  addRoute(app, logsRoutes.sourceEvents, async ({ identity, params, query }) => {
    const def = checkSource(identity, params.ref, params.source);
    const filters = LOG_SOURCE_FILTERS[params.source];
    if (query.level !== undefined && !filters.level) throw badRequest(LogsMessages.noFilter('level', def.label));
    if (query.level !== undefined && filters.level && !filters.level.values.includes(query.level)) throw badRequest(LogsMessages.levelUnknown(filters.level.values));
    if (query.status !== undefined && !filters.status) throw badRequest(LogsMessages.noFilter('status', def.label));
    if (query.method !== undefined && !filters.method) throw badRequest(LogsMessages.noFilter('method', def.label));
    if ((query.before === undefined) !== (query.before_id === undefined)) throw badRequest(LogsMessages.cursorIncomplete);
    const from = query.from ? new Date(query.from) : undefined;
    const to = query.to ? new Date(query.to) : undefined;
    if (from && to && from >= to) throw badRequest(LogsMessages.rangeReversed);

    const days = await retentionDays(params.ref);
    const floor = retentionFloor(new Date(), days);
    const limit = query.limit ?? 100;
    const q = sourceEventsQuery({
      ref: params.ref,
      source: params.source,
      from: from && from > floor ? from : floor,
      to,
      search: query.search || undefined,
      level: query.level,
      status: query.status,
      method: query.method,
      before: query.before && query.before_id ? { timestamp: new Date(query.before), id: query.before_id } : undefined,
      limit,
    });
    const { rows } = await ctx.pool.query<Row>(q.text, q.values);
    const page = rows.slice(0, limit).map(toEvent);
    const last = page.at(-1);
    return { events: page, next: rows.length > limit && last ? { before: last.timestamp, before_id: last.id } : null, retention_days: days };
  });

  addRoute(app, logsRoutes.sourceEvent, async ({ identity, params, query }) => {
    checkSource(identity, params.ref, params.source);
    const floor = retentionFloor(new Date(), await retentionDays(params.ref));
    const q = sourceEventQuery({ ref: params.ref, source: params.source, id: params.id, from: floor, at: query.timestamp ? new Date(query.timestamp) : undefined });
    const { rows } = await ctx.pool.query<Row>(q.text, q.values);
    if (!rows[0]) throw notFound(LogsMessages.eventNotFound);
    return toEvent(rows[0]);
  });

  addRoute(app, logsRoutes.retention, async ({ params }) => ({ retention_days: await retentionDays(params.ref) }));
}
