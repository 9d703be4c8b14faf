import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import type { EventsHistogram as Histogram } from '@dash/contracts';

/** A bucket's label: the time of day for short intervals, the date too from hours up. */
function bucketLabel(iso: string, intervalSeconds: number): string {
  const date = new Date(iso);
  const time = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', hour12: false, ...(intervalSeconds < 60 ? { second: '2-digit' } : {}) });
  if (intervalSeconds < 3600) return time;
  const day = date.toLocaleDateString(undefined, { day: '2-digit', month: 'short' });
  return intervalSeconds >= 86_400 ? day : `${day} ${time}`;
}

function intervalText(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} d`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** Events per interval as bars, with the total and the interval in a caption. */
export function EventsHistogram({ histogram, height = 140 }: { histogram: Histogram; height?: number }) {
  const data = histogram.buckets.map((b) => ({ label: bucketLabel(b.start, histogram.interval_seconds), count: b.count }));
  const total = histogram.buckets.reduce((sum, b) => sum + b.count, 0);
  const tables = histogram.tables.join(', ');
  return (
    <figure className="logs-histogram" aria-label="Events histogram">
      <figcaption className="logs-histogram__caption">
        <strong>{total.toLocaleString()}</strong> events in {tables} · {intervalText(histogram.interval_seconds)} per bar
      </figcaption>
      <BarChart responsive data={data} style={{ width: '100%', height }} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid vertical={false} stroke="var(--border)" />
        <XAxis dataKey="label" tick={{ fill: 'var(--text-faint)', fontSize: 11 }} tickLine={false} axisLine={{ stroke: 'var(--border-strong)' }} minTickGap={24} />
        <YAxis allowDecimals={false} width={40} tick={{ fill: 'var(--text-faint)', fontSize: 11 }} tickLine={false} axisLine={false} />
        <Tooltip
          cursor={{ fill: 'var(--bg-hover)' }}
          contentStyle={{ background: 'var(--tooltip-bg)', border: '1px solid var(--border-strong)', color: 'var(--text)', fontSize: 12 }}
          formatter={(value) => [String(value), 'Events']}
        />
        <Bar dataKey="count" fill="var(--brand)" isAnimationActive={false} />
      </BarChart>
    </figure>
  );
}
