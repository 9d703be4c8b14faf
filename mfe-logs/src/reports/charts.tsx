import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { ReportInterval } from '@dash/contracts';

/** A point's label: the time of day for minutes and hours (with the date for hours), the date for days. */
export function timeLabel(iso: string, interval: ReportInterval): string {
  const date = new Date(iso);
  const day = date.toLocaleDateString(undefined, { day: '2-digit', month: 'short' });
  if (interval === 'day') return day;
  const time = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', hour12: false });
  return interval === 'hour' ? `${day} ${time}` : time;
}

export interface ChartSeries {
  key: string;
  label: string;
  color: string;
}

const axisTick = { fill: 'var(--text-faint)', fontSize: 11 };
const tooltipStyle = { background: 'var(--tooltip-bg)', border: '1px solid var(--border-strong)', color: 'var(--text)', fontSize: 12 };

/**
 * A line or bar chart of some numeric series over a category axis (time labels, or a custom report's
 * x column). `format` renders the values in the axis and the tooltip.
 */
export function SeriesChart({ kind, data, x, series, format = (v) => v.toLocaleString(), height = 220, label }: {
  kind: 'line' | 'bar';
  data: Array<Record<string, unknown>>;
  x: string;
  series: ChartSeries[];
  format?: (value: number) => string;
  height?: number;
  /** The chart's accessible name. */
  label: string;
}) {
  const common = { responsive: true, data, style: { width: '100%', height }, margin: { top: 8, right: 12, bottom: 0, left: 4 } } as const;
  const axes = (
    <>
      <CartesianGrid vertical={false} stroke="var(--border)" />
      <XAxis dataKey={x} tick={axisTick} tickLine={false} axisLine={{ stroke: 'var(--border-strong)' }} minTickGap={28} />
      <YAxis width={80} tick={axisTick} tickLine={false} axisLine={false} tickFormatter={(v: number) => format(v)} />
      <Tooltip
        cursor={kind === 'bar' ? { fill: 'var(--bg-hover)' } : { stroke: 'var(--border-strong)' }}
        contentStyle={tooltipStyle}
        formatter={(value, name) => [typeof value === 'number' ? format(value) : String(value ?? '–'), name]}
      />
      {series.length > 1 && <Legend wrapperStyle={{ fontSize: 12, color: 'var(--text-muted)' }} />}
    </>
  );
  return (
    <div role="img" aria-label={label} className="reports-chart">
      {kind === 'bar' ? (
        <BarChart {...common}>
          {axes}
          {series.map((s) => (
            <Bar key={s.key} dataKey={s.key} name={s.label} fill={s.color} isAnimationActive={false} />
          ))}
        </BarChart>
      ) : (
        <LineChart {...common}>
          {axes}
          {series.map((s) => (
            <Line key={s.key} dataKey={s.key} name={s.label} stroke={s.color} dot={{ r: 1.5 }} strokeWidth={2} connectNulls isAnimationActive={false} />
          ))}
        </LineChart>
      )}
    </div>
  );
}

/** A titled panel of a report: a chart, a table or a state. */
export function ReportPanel({ title, description, children, wide }: { title: string; description?: ReactNode; children: ReactNode; wide?: boolean }) {
  return (
    <section className={`reports-panel${wide ? ' reports-panel--wide' : ''}`} aria-label={title}>
      <header className="reports-panel__header">
        <h2>{title}</h2>
        {description && <p>{description}</p>}
      </header>
      {children}
    </section>
  );
}

/** The headline numbers of a report. */
export function Stats({ items }: { items: Array<{ label: string; value: string; hint?: string }> }) {
  return (
    <dl className="reports-stats">
      {items.map((item) => (
        <div key={item.label} className="reports-stat">
          <dt>{item.label}</dt>
          <dd>{item.value}</dd>
          {item.hint && <span className="reports-stat__hint">{item.hint}</span>}
        </div>
      ))}
    </dl>
  );
}

export { formatMs } from '@dash/contracts';
export const formatPercent = (ratio: number | null): string => (ratio === null ? '–' : `${(ratio * 100).toFixed(ratio >= 0.999 || ratio === 0 ? 0 : 1)}%`);
