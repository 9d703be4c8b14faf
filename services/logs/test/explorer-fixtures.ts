import type pg from 'pg';
import type { LogSourceName } from '@dash/contracts';
import { PartitionManager } from '../src/db/partitions';
import { daysOf } from '../src/sql/partitions';

export interface SeedEvent {
  source: LogSourceName;
  ref: string;
  at: Date;
  message: string;
  metadata: Record<string, unknown>;
}

/** Writes events straight into logs.events (with their day partitions), as the sources' writers would. */
export async function seedEvents(pool: pg.Pool, events: readonly SeedEvent[]): Promise<void> {
  await new PartitionManager(pool).ensure(daysOf(events.map((e) => e.at)));
  await pool.query(
    `insert into logs.events ("timestamp", source, project_ref, event_message, metadata)
     select * from unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::jsonb[])`,
    [
      events.map((e) => e.at.toISOString()),
      events.map((e) => e.source),
      events.map((e) => e.ref),
      events.map((e) => e.message),
      events.map((e) => JSON.stringify(e.metadata)),
    ],
  );
}

export const minutesAgo = (minutes: number, now = Date.now()) => new Date(now - minutes * 60_000);

export function edgeEvent(ref: string, at: Date, path: string, status = 200, extra: Record<string, unknown> = {}): SeedEvent {
  return {
    source: 'edge',
    ref,
    at,
    message: `GET ${path} ${status}`,
    metadata: { method: 'GET', path, status, duration_ms: 12.5, response_bytes: 100, query: null, user_agent: 'curl/8', ...extra },
  };
}
