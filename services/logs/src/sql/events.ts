import type { EdgeLogEvent, LogSource } from '@dash/contracts';
import type { SqlQuery } from '@dash/service-kit';

export const EDGE_LOGS_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export interface EventRow {
  timestamp: Date;
  source: LogSource;
  projectRef: string | null;
  eventMessage: string;
  metadata: Record<string, unknown>;
}

/** The whole batch in one statement with five array parameters, whatever its size. */
export function insertEventsQuery(events: readonly EventRow[]): SqlQuery {
  return {
    text: `insert into logs.events ("timestamp", source, project_ref, event_message, metadata)
select * from unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::jsonb[])`,
    values: [
      events.map((e) => e.timestamp.toISOString()),
      events.map((e) => e.source),
      events.map((e) => e.projectRef),
      events.map((e) => e.eventMessage),
      events.map((e) => JSON.stringify(e.metadata)),
    ],
  };
}

/**
 * The newest edge events of a project before `before`, newest first. Both time bounds are parameters
 * (the window is the 7 days before `before`), so the planner prunes to those days' partitions.
 */
export function edgeLogsQuery(input: { ref: string; before: Date; limit: number }): SqlQuery {
  const after = new Date(input.before.getTime() - EDGE_LOGS_WINDOW_MS);
  return {
    text: `select id::text as id, "timestamp", event_message, metadata
from logs.events
where project_ref = $1 and source = 'edge' and "timestamp" < $2::timestamptz and "timestamp" >= $3::timestamptz
order by "timestamp" desc, id desc
limit $4::int`,
    values: [input.ref, input.before.toISOString(), after.toISOString(), input.limit],
  };
}

export interface StoredEvent {
  id: string;
  timestamp: Date;
  event_message: string | null;
  metadata: Record<string, unknown> | null;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
function int(v: unknown): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) ? n : 0;
}
function num(v: unknown): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}

/** A stored edge event as the API gateway logs page lists it; missing metadata reads as empty. */
export function toEdgeLogEvent(row: StoredEvent): EdgeLogEvent {
  const m = row.metadata ?? {};
  return {
    id: row.id,
    timestamp: row.timestamp.toISOString(),
    method: str(m.method),
    path: str(m.path),
    status: int(m.status),
    duration_ms: num(m.duration_ms),
    event_message: row.event_message ?? '',
  };
}
