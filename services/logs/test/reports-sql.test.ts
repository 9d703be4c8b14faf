import { LogTimeRangeMessages, reportInterval } from '@dash/contracts';
import { apiSeriesQuery, apiStatusCodesQuery, apiTopPathsQuery, storageBucketsQuery, storageSeriesQuery } from '../src/sql/reports';
import { reportWindow } from '../src/routes/reports';

const w = { ref: "it's", from: new Date('2026-03-01T10:00:00Z'), to: new Date('2026-03-01T13:00:00Z'), interval: 'minute' as const };

describe('report windows', () => {
  it('picks minutes up to 3 hours, hours up to 3 days, then days', () => {
    const from = new Date('2026-03-01T00:00:00Z');
    const after = (hours: number) => new Date(from.getTime() + hours * 3_600_000);
    expect(reportInterval(from, after(3))).toBe('minute');
    expect(reportInterval(from, after(3.01))).toBe('hour');
    expect(reportInterval(from, after(7 * 24))).toBe('hour');
    expect(reportInterval(from, after(8 * 24 + 1))).toBe('day');
  });

  it('resolves presets against now and refuses custom ranges that end before they start or span more than 31 days', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    expect(reportWindow('a', { range: '24h' }, now)).toEqual({ ref: 'a', from: new Date('2026-02-28T12:00:00Z'), to: now, interval: 'hour' });
    expect(reportWindow('a', {}, now)).toMatchObject({ from: new Date('2026-03-01T11:00:00Z'), interval: 'minute' });
    expect(reportWindow('a', { from: '2026-03-01T00:00:00Z', to: '2026-04-01T00:00:00Z' }).interval).toBe('day');
    expect(() => reportWindow('a', { from: '2026-03-01T00:00:00Z', to: '2026-03-01T00:00:00Z' })).toThrow(LogTimeRangeMessages.endBeforeStart);
    expect(() => reportWindow('a', { from: '2026-03-01T00:00:00Z', to: '2026-04-01T00:00:01Z' })).toThrow(LogTimeRangeMessages.tooLong);
  });
});

describe('report statements', () => {
  it('pass the project, the range and the source as parameters, never in the text', () => {
    for (const q of [apiSeriesQuery(w), apiTopPathsQuery(w), apiStatusCodesQuery(w), storageSeriesQuery(w), storageBucketsQuery(w)]) {
      expect(q.text).not.toContain("it's");
      expect(q.text).not.toContain('2026');
      expect(q.values.slice(0, 3)).toEqual(["it's", '2026-03-01T10:00:00.000Z', '2026-03-01T13:00:00.000Z']);
      // Both time bounds are parameters compared with the partition key: the planner prunes by day.
      expect(q.text).toContain('"timestamp" >= $2::timestamptz and "timestamp" < $3::timestamptz');
    }
  });

  it('read the edge source for the API report and the storage source for the storage report', () => {
    expect(apiSeriesQuery(w).values).toEqual(["it's", '2026-03-01T10:00:00.000Z', '2026-03-01T13:00:00.000Z', 'edge', 'minute']);
    expect(apiTopPathsQuery(w).values[3]).toBe('edge');
    expect(apiStatusCodesQuery(w).values).toHaveLength(4);
    expect(storageSeriesQuery(w).values[3]).toBe('storage');
    expect(storageBucketsQuery(w).values).toEqual(["it's", '2026-03-01T10:00:00.000Z', '2026-03-01T13:00:00.000Z', 'storage', 10]);
  });

  it('compute p50, p95 and p99 with percentile_cont and fill empty buckets with a series', () => {
    const { text } = apiSeriesQuery(w);
    expect(text).toContain('percentile_cont(array[0.5, 0.95, 0.99]) within group (order by duration_ms)');
    expect(text).toContain('generate_series(date_trunc($5, $2::timestamptz');
    expect(text).toContain('left join agg');
  });

  it('read metadata numbers only when they are JSON numbers', () => {
    expect(apiStatusCodesQuery(w).text).toContain("case when jsonb_typeof(metadata -> 'status') = 'number' then (metadata ->> 'status')::numeric::int end");
    expect(storageSeriesQuery(w).text).toContain("metadata ->> 'direction' = 'in'");
  });
});
