import type { QueryRun, ReportBlock, StatementResult } from '@dash/contracts';

/** A block shows the snippet's last statement that returned columns (a script may set things up first). */
export function blockResult(run: QueryRun): StatementResult | undefined {
  return [...run.results].reverse().find((result) => result.columns.length > 0);
}

/** A chart's points: x as text, y as a number (Postgres sends int8 and numeric as strings); rows without a numeric y are left out. */
export function chartPoints(result: StatementResult, x: string, y: string): Array<{ x: string; y: number }> | null {
  const xi = result.columns.findIndex((c) => c.name === x);
  const yi = result.columns.findIndex((c) => c.name === y);
  if (xi < 0 || yi < 0) return null;
  return result.rows.flatMap((row) => {
    const value = Number(row[yi]);
    return row[yi] === null || !Number.isFinite(value) ? [] : [{ x: String(row[xi] ?? ''), y: value }];
  });
}

/** The layout with the block at `from` moved to `to` (both in range; anything else leaves it as is). */
export function moveBlock(layout: readonly ReportBlock[], from: number, to: number): ReportBlock[] {
  if (from === to || from < 0 || to < 0 || from >= layout.length || to >= layout.length) return [...layout];
  const next = [...layout];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}
