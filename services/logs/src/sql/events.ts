import type { LogSource } from '@dash/contracts';
import type { SqlQuery } from '@dash/service-kit';

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
