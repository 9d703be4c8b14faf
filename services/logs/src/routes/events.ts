import type { FastifyInstance } from 'fastify';
import { LOG_METADATA_MAX_DEPTH, LogIngestMessages, logsRoutes } from '@dash/contracts';
import { addRoute, badRequest } from '@dash/service-kit';
import { nestedDeeperThan } from '../json-depth';
import type { EventRow } from '../sql/events';
import { storeEvents } from '../store';
import type { LogsContext } from '../app';

export async function eventRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: LogsContext }): Promise<void> {
  addRoute(app, logsRoutes.ingest, async ({ body }) => {
    const tooDeep = body.events.findIndex((e) => nestedDeeperThan(e.metadata, LOG_METADATA_MAX_DEPTH));
    if (tooDeep !== -1) throw badRequest(LogIngestMessages.metadataTooDeep(tooDeep + 1));
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
