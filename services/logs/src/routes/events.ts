import pg from 'pg';
import { logsRoutes } from '@dash/contracts';
import { addRoute, badRequest, type ServiceApp } from '@dash/service-kit';
import { daysOf } from '../sql/partitions';
import { insertEventsQuery, type EventRow } from '../sql/events';
import type { LogsContext } from '../app';

/** "no partition of relation found for row": a remembered partition was dropped. */
const NO_PARTITION = '23514';

export function registerEventRoutes(app: ServiceApp, ctx: LogsContext): void {
  addRoute(app, logsRoutes.ingest, async ({ body }) => {
    const events: EventRow[] = body.events.map((e) => ({
      timestamp: new Date(e.timestamp),
      source: e.source,
      projectRef: e.project_ref,
      eventMessage: e.event_message,
      metadata: e.metadata,
    }));
    const days = daysOf(events.map((e) => e.timestamp));
    const query = insertEventsQuery(events);
    await ctx.partitions.ensure(days);
    try {
      await insert(ctx.pool, query);
    } catch (error) {
      if ((error as { code?: string }).code !== NO_PARTITION) throw error;
      ctx.partitions.forget(days);
      await ctx.partitions.ensure(days);
      await insert(ctx.pool, query);
    }
    return { accepted: events.length };
  });
}

async function insert(pool: pg.Pool, query: { text: string; values: unknown[] }): Promise<void> {
  try {
    await pool.query(query.text, query.values);
  } catch (error) {
    // Values Postgres cannot store (a NUL character in text or JSON): the sender's mistake.
    if (error instanceof pg.DatabaseError && error.code?.startsWith('22')) throw badRequest(error.message, error.code);
    throw error;
  }
}
