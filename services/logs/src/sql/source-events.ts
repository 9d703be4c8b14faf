import { LOG_SOURCE_FILTERS, type LogSourceName } from '@dash/contracts';
import type { SqlQuery } from '@dash/service-kit';

/** `text` for `ilike … escape '\'`: its `%`, `_` and `\` match themselves, and it may sit anywhere. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `2xx` → [200, 300); `404` → [404, 405). The contract's pattern has already checked the form. */
export function statusRange(status: string): [number, number] {
  const cls = /^([1-5])xx$/.exec(status);
  if (cls) return [Number(cls[1]) * 100, Number(cls[1]) * 100 + 100];
  const code = Number(status);
  return [code, code + 1];
}

export interface SourceEventsInput {
  ref: string;
  source: LogSourceName;
  /** Lower bound (inclusive); already clamped to the project's retention. */
  from: Date;
  /** Upper bound (exclusive); none means up to the newest event. */
  to?: Date;
  search?: string;
  level?: string;
  status?: string;
  method?: string;
  before?: { timestamp: Date; id: string };
  /** Rows wanted; the query asks for one more to know whether an older page exists. */
  limit: number;
}

/**
 * A page of one source's events of a project, newest first, by (timestamp, id) so paging back with the
 * last row's pair neither skips nor repeats events of the same instant. Every value is a parameter;
 * the time bounds are plain comparisons on "timestamp", so the planner reads only those days' partitions.
 */
export function sourceEventsQuery(input: SourceEventsInput): SqlQuery {
  const values: unknown[] = [];
  const param = (value: unknown, cast: string) => {
    values.push(value);
    return `$${values.length}::${cast}`;
  };
  const where = [
    `project_ref = ${param(input.ref, 'text')}`,
    `source = ${param(input.source, 'text')}`,
    `"timestamp" >= ${param(input.from.toISOString(), 'timestamptz')}`,
  ];
  if (input.to) where.push(`"timestamp" < ${param(input.to.toISOString(), 'timestamptz')}`);
  if (input.search) where.push(`event_message ilike ${param(containsPattern(input.search), 'text')} escape '\\'`);
  const filters = LOG_SOURCE_FILTERS[input.source];
  if (input.level !== undefined && filters.level) {
    where.push(`metadata ->> ${param(filters.level.key, 'text')} = ${param(input.level, 'text')}`);
  }
  if (input.status !== undefined && filters.status) {
    const [low, high] = statusRange(input.status);
    // Only numbers count: a writer's odd value must not make the cast fail.
    where.push(
      `case when jsonb_typeof(metadata -> 'status') = 'number' then (metadata ->> 'status')::numeric end >= ${param(low, 'int')}`,
      `case when jsonb_typeof(metadata -> 'status') = 'number' then (metadata ->> 'status')::numeric end < ${param(high, 'int')}`,
    );
  }
  if (input.method !== undefined && filters.method) where.push(`metadata ->> 'method' = ${param(input.method, 'text')}`);
  if (input.before) {
    where.push(`("timestamp", id) < (${param(input.before.timestamp.toISOString(), 'timestamptz')}, ${param(input.before.id, 'uuid')})`);
  }
  return {
    text: `select id::text as id, "timestamp", event_message, metadata
from logs.events
where ${where.join('\n  and ')}
order by "timestamp" desc, id desc
limit ${param(input.limit + 1, 'int')}`,
    values,
  };
}

/** One event of a source of a project, no older than `from`; `at` (its timestamp) narrows to one partition. */
export function sourceEventQuery(input: { ref: string; source: LogSourceName; id: string; from: Date; at?: Date }): SqlQuery {
  const values: unknown[] = [input.ref, input.source, input.id, input.from.toISOString()];
  let text = `select id::text as id, "timestamp", event_message, metadata
from logs.events
where project_ref = $1::text and source = $2::text and id = $3::uuid and "timestamp" >= $4::timestamptz`;
  if (input.at) {
    values.push(input.at.toISOString());
    text += ` and "timestamp" = $5::timestamptz`;
  }
  return { text, values };
}
