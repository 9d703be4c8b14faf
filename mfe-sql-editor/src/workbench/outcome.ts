import type { QueryPlan, QueryRun, SqlRunAs } from '@dash/contracts';
import type { TextLocation } from './sql-text';

/** The text a run, an explain or an export acted on: the selection or the whole document, as sent. */
export interface RunSource {
  text: string;
  /** Where `text` starts in the document. */
  offset: number;
  /** The whole document when it was sent (an error position is marked only if it is still the same). */
  doc: string;
  runAs?: SqlRunAs;
}

/** A failed call as the workbench shows it: Postgres's fields for a statement error, the message otherwise. */
export interface SqlFailure {
  message: string;
  code?: string;
  detail?: string;
  hint?: string;
  position?: number;
}

/** What the results area shows. */
export type Outcome =
  | { kind: 'idle' }
  | { kind: 'empty' }
  | { kind: 'running'; runId: string; startedAt: number; cancelling: boolean }
  | { kind: 'explaining'; analyze: boolean; startedAt: number }
  | { kind: 'run'; run: QueryRun; source: RunSource }
  | { kind: 'plan'; plan: QueryPlan; analyze: boolean; source: RunSource }
  | { kind: 'error'; failure: SqlFailure; source: RunSource; location?: TextLocation };

/** The fields of a failed RTK Query call: a service's error reply, or a network failure's message. */
export function failureOf(error: unknown, fallback = 'The request failed'): SqlFailure {
  const e = (error ?? {}) as { data?: unknown; error?: unknown; status?: unknown; message?: unknown };
  const data = e.data && typeof e.data === 'object' ? (e.data as Record<string, unknown>) : undefined;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const message = str(data?.message) ?? str(e.error) ?? str(e.message) ?? (typeof e.status === 'number' ? `${fallback} (HTTP ${e.status})` : fallback);
  const position = typeof data?.position === 'number' && Number.isInteger(data.position) && data.position > 0 ? data.position : undefined;
  return {
    message,
    ...(str(data?.code) ? { code: str(data?.code) } : {}),
    ...(str(data?.detail) ? { detail: str(data?.detail) } : {}),
    ...(str(data?.hint) ? { hint: str(data?.hint) } : {}),
    ...(position !== undefined ? { position } : {}),
  };
}
