import { LOGS_DEFAULT_LIMIT, logsRoutes } from '@dash/contracts';
import { addRoute, type ServiceApp } from '@dash/service-kit';
import { edgeLogsQuery, toEdgeLogEvent, type StoredEvent } from '../sql/events';
import type { LogsContext } from '../app';

export function registerEdgeLogRoutes(app: ServiceApp, ctx: LogsContext): void {
  addRoute(app, logsRoutes.edgeLogs, async ({ params, query }) => {
    const before = query.before ? new Date(query.before) : new Date();
    const q = edgeLogsQuery({ ref: params.ref, before, limit: query.limit ?? LOGS_DEFAULT_LIMIT });
    const { rows } = await ctx.pool.query<StoredEvent>(q.text, q.values);
    return { events: rows.map(toEdgeLogEvent) };
  });
}
