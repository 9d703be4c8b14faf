import type { FastifyInstance } from 'fastify';
import { logTimeRangeFromQuery, reportInterval, reportRoutes, resolveLogTimeRange, type LogTimeRangeQuery } from '@dash/contracts';
import { addRoute, badRequest } from '@dash/service-kit';
import {
  apiSeriesQuery,
  apiStatusCodesQuery,
  apiTopPathsQuery,
  storageBucketsQuery,
  storageSeriesQuery,
  type ReportWindow,
} from '../sql/reports';
import type { LogsContext } from '../app';

/** The report's window, resolved as the explorer resolves it (a preset ends now); an invalid custom range is a 400. */
export function reportWindow(ref: string, query: LogTimeRangeQuery, now: Date = new Date()): ReportWindow {
  const resolved = resolveLogTimeRange(logTimeRangeFromQuery(query), now);
  if ('error' in resolved) throw badRequest(resolved.error);
  return { ref, from: resolved.from, to: resolved.to, interval: reportInterval(resolved.from, resolved.to) };
}

// pg returns int8 and numeric as strings; the counts here are far below 2^53.
const n = (v: unknown): number => Number(v);
const ms = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const iso = (v: Date): string => v.toISOString();

/** The built-in API and storage reports; each reads the range with a few statements run side by side. */
export async function reportRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: LogsContext }): Promise<void> {
  addRoute(app, reportRoutes.apiOverview, async ({ params, query }) => {
    const w = reportWindow(params.ref, query);
    const [series, paths, statuses] = await Promise.all([
      ctx.pool.query(apiSeriesQuery(w)),
      ctx.pool.query(apiTopPathsQuery(w)),
      ctx.pool.query(apiStatusCodesQuery(w)),
    ]);
    const points = series.rows.map((r) => ({
      time: iso(r.time),
      requests: n(r.requests),
      errors: n(r.errors),
      p50_ms: ms(r.p50_ms),
      p95_ms: ms(r.p95_ms),
      p99_ms: ms(r.p99_ms),
    }));
    return {
      from: iso(w.from),
      to: iso(w.to),
      interval: w.interval,
      totals: { requests: sum(points, 'requests'), errors: sum(points, 'errors') },
      series: points,
      top_paths: paths.rows.map((r) => ({ path: r.path, requests: n(r.requests), errors: n(r.errors), avg_ms: ms(r.avg_ms) })),
      status_codes: statuses.rows.map((r) => ({ status: r.status, requests: n(r.requests) })),
    };
  });

  addRoute(app, reportRoutes.storage, async ({ params, query }) => {
    const w = reportWindow(params.ref, query);
    const [series, buckets] = await Promise.all([ctx.pool.query(storageSeriesQuery(w)), ctx.pool.query(storageBucketsQuery(w))]);
    const points = series.rows.map((r) => ({ time: iso(r.time), requests: n(r.requests), bytes_in: n(r.bytes_in), bytes_out: n(r.bytes_out) }));
    return {
      from: iso(w.from),
      to: iso(w.to),
      interval: w.interval,
      totals: { requests: sum(points, 'requests'), bytes_in: sum(points, 'bytes_in'), bytes_out: sum(points, 'bytes_out') },
      series: points,
      buckets: buckets.rows.map((r) => ({ bucket: r.bucket, requests: n(r.requests), errors: n(r.errors), bytes_in: n(r.bytes_in), bytes_out: n(r.bytes_out) })),
    };
  });
}

function sum<K extends string>(rows: Array<Record<K, number>>, key: K): number {
  return rows.reduce((total, row) => total + row[key], 0);
}
