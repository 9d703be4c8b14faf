import type { FastifyInstance } from 'fastify';
import { logsRoutes } from '@dash/contracts';
import { addRoute } from '@dash/service-kit';
import type { EventRow } from '../sql/events';
import { storeEvents } from '../store';
import type { LogsContext } from '../app';

export async function eventRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: LogsContext }): Promise<void> {
  addRoute(app, logsRoutes.ingest, async ({ body }) => {
    const events: EventRow[] = body.events.map((e) => ({
      timestamp: new Date(e.timestamp),
      source: e.source,
      projectRef: e.project_ref,
      eventMessage: e.event_message,
      metadata: e.metadata,
    }));
    await storeEvents(ctx.pool, ctx.partitions, events);
    return { accepted: events.length };
  });
}
