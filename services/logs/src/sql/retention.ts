import { LOG_RETENTION_DEFAULT_DAYS } from '@dash/contracts';
import { quoteIdent, type SqlQuery } from '@dash/service-kit';
import { dayBounds, EVENTS_TABLE, LOGS_SCHEMA, partitionName } from './partitions';

export const DAY_MS = 24 * 60 * 60 * 1000;

/** A project's retention in days: its setting, or the default. */
export function retentionQuery(ref: string): SqlQuery {
  return {
    text: `select coalesce((select retention_days from logs.project_settings where project_ref = $1::text), $2::int) as retention_days`,
    values: [ref, LOG_RETENTION_DEFAULT_DAYS],
  };
}

export function setRetentionQuery(ref: string, days: number): SqlQuery {
  return {
    text: `insert into logs.project_settings (project_ref, retention_days) values ($1::text, $2::int)
on conflict (project_ref) do update set retention_days = excluded.retention_days, updated_at = now()
returning retention_days`,
    values: [ref, days],
  };
}

/** The longest retention of any project (never less than the default, which projects without a setting have). */
export function longestRetentionQuery(): SqlQuery {
  return {
    text: `select greatest($1::int, coalesce(max(retention_days), 0)) as days from logs.project_settings`,
    values: [LOG_RETENTION_DEFAULT_DAYS],
  };
}

/** The oldest instant a project keeping `days` days may still read at `now`. */
export function retentionFloor(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/** The day partitions of `table` among `names` whose every event is older than `days` days at `now` (whole days only). */
export function expiredPartitions(names: readonly string[], now: Date, days: number, table: string = EVENTS_TABLE): string[] {
  const floor = retentionFloor(now, days).getTime();
  const prefix = `${table}_`;
  return names
    .filter((name) => name.startsWith(prefix) && /^\d{8}$/.test(name.slice(prefix.length)))
    .filter((name) => {
      try {
        return new Date(dayBounds(name.slice(prefix.length)).to).getTime() <= floor;
      } catch {
        return false; // not a day we made
      }
    })
    .sort();
}

export function dropPartitionSql(day: string, table: string = EVENTS_TABLE): string {
  return `drop table if exists ${quoteIdent(LOGS_SCHEMA)}.${quoteIdent(partitionName(day, table))}`;
}

/** The partitions of a day-partitioned table of the logs schema. */
export function listPartitionsQuery(table: string = EVENTS_TABLE): SqlQuery {
  return {
    text: `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
join pg_class p on p.oid = i.inhparent join pg_namespace n on n.oid = p.relnamespace
where n.nspname = $1 and p.relname = $2 order by 1`,
    values: [LOGS_SCHEMA, table],
  };
}
