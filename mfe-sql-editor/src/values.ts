import { errorMessage } from '@dash/shell-sdk';

/** How a result cell reads: NULL for null, JSON for objects and arrays, the text of anything else. */
export function formatCell(value: unknown): { text: string; isNull: boolean } {
  if (value === null || value === undefined) return { text: 'NULL', isNull: true };
  if (typeof value === 'object') return { text: JSON.stringify(value), isNull: false };
  return { text: String(value), isNull: false };
}

/** The Postgres message and SQLSTATE of a failed run, as the service sends them (`{ message, code }`). */
export function queryFailure(error: unknown): { message: string; code?: string } {
  const data = (error as { data?: { code?: unknown } } | undefined)?.data;
  const code = data && typeof data === 'object' && typeof data.code === 'string' ? data.code : undefined;
  return { message: errorMessage(error), code };
}

export function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

export function formatDuration(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
