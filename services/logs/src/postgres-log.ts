import type { LogMetadata } from '@dash/contracts';
import type { EventRow } from './sql/events';

/** The fields of a `jsonlog` line this service reads (Postgres writes more; absent ones are omitted). */
export interface JsonLogLine {
  timestamp?: string;
  user?: string;
  dbname?: string;
  error_severity?: string;
  state_code?: string;
  message?: string;
  detail?: string;
  hint?: string;
  statement?: string;
  backend_type?: string;
}

const MAX_TEXT = 10_000;
/** Postgres text cannot hold NUL, which a logged string literal may contain. */
const clean = (v: string) => v.replaceAll('\u0000', '').slice(0, MAX_TEXT);
function text(v: unknown): string | null {
  const s = typeof v === 'string' ? clean(v) : '';
  return s === '' ? null : s;
}

/**
 * jsonlog's `timestamp` ("2024-03-01 12:00:00.123 UTC", in log_timezone, which the dashboard's server
 * sets to UTC; a numeric zone like "+02" is read too). Null when it is neither.
 */
export function jsonLogTime(value: string | undefined): Date | null {
  const m = value ? /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?) (UTC|GMT|[+-]\d{2}(?::?\d{2})?)$/.exec(value) : null;
  if (!m) return null;
  const zone = m[3] === 'UTC' || m[3] === 'GMT' ? 'Z' : m[3]!.length === 3 ? `${m[3]}:00` : m[3]!.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const at = new Date(`${m[1]}T${m[2]}${zone}`);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** A slow statement's line (log_min_duration_statement): "duration: 1012.345 ms  statement: select …". */
const DURATION = /^duration: (\d+(?:\.\d+)?) ms(?:\s+(?:statement|execute [^:]*|bind [^:]*|parse [^:]*): ([\s\S]*))?$/;

/** Parses one line of a jsonlog file; null for a line that is not a JSON object (a torn or foreign line). */
export function parseJsonLogLine(line: string): JsonLogLine | null {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonLogLine) : null;
  } catch {
    return null;
  }
}

/**
 * The postgres_logs event of a line about project `ref`'s database: its message, and the metadata keys
 * LogMetadata['postgres'] names. A slow statement's duration and text come out of its message.
 */
export function postgresLogEvent(line: JsonLogLine, ref: string, receivedAt: Date): EventRow {
  const message = line.message ?? '';
  const slow = DURATION.exec(message);
  const metadata: LogMetadata['postgres'] = {
    error_severity: line.error_severity ?? 'LOG',
    sql_state_code: text(line.state_code),
    user_name: text(line.user),
    database_name: text(line.dbname),
    backend_type: text(line.backend_type),
    statement: text(line.statement) ?? text(slow?.[2]),
    detail: text(line.detail),
    hint: text(line.hint),
    duration_ms: slow ? Number(slow[1]) : null,
  };
  return {
    timestamp: jsonLogTime(line.timestamp) ?? receivedAt,
    source: 'postgres',
    projectRef: ref,
    eventMessage: clean(message),
    metadata,
  };
}
