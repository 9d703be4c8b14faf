import { quoteIdent, quoteLiteral } from '@dash/service-kit';

export const LOGS_SCHEMA = 'logs';
export const EVENTS_TABLE = 'events';
const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of an instant, as `YYYYMMDD`. */
export function dayKey(at: Date): string {
  if (Number.isNaN(at.getTime())) throw new Error('Invalid date');
  return at.toISOString().slice(0, 10).replace(/-/g, '');
}

/** The distinct UTC days of some instants, in order. */
export function daysOf(instants: readonly Date[]): string[] {
  return [...new Set(instants.map(dayKey))].sort();
}

/** A day's partition of a partitioned table of the logs schema (`events` unless said). */
export function partitionName(day: string, table: string = EVENTS_TABLE): string {
  return `${table}_${day}`;
}

function dayStart(day: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(day);
  if (!m) throw new Error(`Invalid day key ${day}`);
  const start = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (dayKey(start) !== day) throw new Error(`Invalid day key ${day}`);
  return start;
}

/** Bounds of a day's partition, `[from, to)`, as timestamptz literals in UTC. */
export function dayBounds(day: string): { from: string; to: string } {
  const start = dayStart(day);
  return { from: start.toISOString(), to: new Date(start.getTime() + DAY_MS).toISOString() };
}

/** DDL for one day's partition of logs.events or another table (DDL takes no parameters, so names and bounds are quoted). */
export function createPartitionSql(day: string, table: string = EVENTS_TABLE): string {
  const { from, to } = dayBounds(day);
  return (
    `create table if not exists ${quoteIdent(LOGS_SCHEMA)}.${quoteIdent(partitionName(day, table))} ` +
    `partition of ${quoteIdent(LOGS_SCHEMA)}.${quoteIdent(table)} ` +
    `for values from (${quoteLiteral(from)}) to (${quoteLiteral(to)})`
  );
}
