import { plural, type QueryColumn, type StatementResult } from '@dash/contracts';

/** How a result cell reads: null for SQL NULL, JSON for objects and arrays, the text of anything else. */
export function cellText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * A field of tab-separated values as spreadsheets paste them: quoted (quotes doubled) when it holds a
 * tab or a line break, or starts with a quote; as it is otherwise (JSON stays readable).
 */
export function tsvField(value: unknown): string {
  const text = cellText(value) ?? '';
  return /[\t\n\r]/.test(text) || text.startsWith('"') ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A cell as copied on its own: its text as shown, unquoted (NULL copies as an empty string). */
export function copiedCell(value: unknown): string {
  return cellText(value) ?? '';
}

/**
 * Rows as tab-separated values with a header line of the column names, in the order of `indexes`
 * (the grid's order). Spreadsheets and the table editor's import read this back.
 */
export function rowsToTsv(columns: readonly QueryColumn[], rows: readonly (readonly unknown[])[], indexes: Iterable<number>): string {
  const lines = [columns.map((c) => tsvField(c.name)).join('\t')];
  for (const index of indexes) {
    const row = rows[index];
    if (row) lines.push(columns.map((_, i) => tsvField(row[i])).join('\t'));
  }
  return lines.join('\n');
}

export function formatDuration(ms: number): string {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** Commands that write rows: their count is "rows affected" when they return no columns. */
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'COPY']);

/** A result's tab label: its number, its command and its rows ("1 SELECT · 12 rows", "3 CREATE"). */
export function resultLabel(result: StatementResult, index: number): string {
  const head = `${index + 1} ${result.command || 'Statement'}`;
  const count = result.rowCount ?? (result.columns.length > 0 ? result.rows.length : null);
  if (result.columns.length > 0 || (WRITES.has(result.command.toUpperCase()) && count !== null)) {
    return `${head} · ${plural(count ?? 0, 'row', 'rows')}`;
  }
  return head;
}

/** What a statement without columns did: "3 rows affected" for writes, else "Success. No rows returned". */
export function commandOutcome(result: StatementResult): string {
  if (WRITES.has(result.command.toUpperCase()) && result.rowCount !== null) return `${plural(result.rowCount, 'row', 'rows')} affected`;
  return 'Success. No rows returned';
}

/** The result a run shows first: the last one with columns, else the last one; -1 when there is none. */
export function defaultResultIndex(results: readonly StatementResult[]): number {
  for (let i = results.length - 1; i >= 0; i--) if (results[i]!.columns.length > 0) return i;
  return results.length - 1;
}
