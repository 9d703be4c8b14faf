import { REPORT_TOP_ROWS, type ReportInterval } from '@dash/contracts';
import type { SqlQuery } from '@dash/service-kit';

/*
 * The built-in reports over logs.events: pure builders, every input a parameter. Each statement bounds
 * the time on both sides with parameters, so the planner prunes to the range's day partitions. Metadata
 * values are read only when they have the JSON type the writers write (a stray string never fails a cast).
 */

export interface ReportWindow {
  ref: string;
  from: Date;
  to: Date;
  interval: ReportInterval;
}

/** A number-typed metadata key as `cast`, else null. */
const num = (key: string, cast: 'int' | 'float8' | 'int8') =>
  `case when jsonb_typeof(metadata -> '${key}') = 'number' then (metadata ->> '${key}')::numeric::${cast} end`;

/** The project's events of one source in [from, to): `$1` ref, `$2` from, `$3` to, `$4` source. */
const EVENTS_OF = `from logs.events
  where project_ref = $1 and source = $4 and "timestamp" >= $2::timestamptz and "timestamp" < $3::timestamptz`;

const windowValues = (w: ReportWindow, source: string): unknown[] => [w.ref, w.from.toISOString(), w.to.toISOString(), source];

/**
 * Every bucket of the range (`$5` the unit, UTC), so a chart shows quiet periods as zeros rather than
 * joining the points around them. `agg` is the per-bucket aggregate with a `time` column.
 */
function seriesOver(agg: string, columns: string): string {
  return `with agg as (${agg}),
buckets as (
  select generate_series(date_trunc($5, $2::timestamptz, 'UTC'), $3::timestamptz - interval '1 microsecond', ('1 ' || $5)::interval) as time
)
select b.time, ${columns}
from buckets b left join agg a on a.time = b.time
order by b.time`;
}

/** Requests, errors (status 400 and above) and p50/p95/p99 latency per time bucket. */
export function apiSeriesQuery(w: ReportWindow): SqlQuery {
  const agg = `select date_trunc($5, "timestamp", 'UTC') as time,
    count(*) as requests,
    count(*) filter (where status >= 400) as errors,
    percentile_cont(array[0.5, 0.95, 0.99]) within group (order by duration_ms) as p
  from (select "timestamp", ${num('status', 'int')} as status, ${num('duration_ms', 'float8')} as duration_ms
  ${EVENTS_OF}) e
  group by 1`;
  return {
    text: seriesOver(
      agg,
      `coalesce(a.requests, 0)::int8 as requests, coalesce(a.errors, 0)::int8 as errors, a.p[1] as p50_ms, a.p[2] as p95_ms, a.p[3] as p99_ms`,
    ),
    values: [...windowValues(w, 'edge'), w.interval],
  };
}

/** The most requested paths with their errors and mean latency. */
export function apiTopPathsQuery(w: ReportWindow): SqlQuery {
  return {
    text: `select coalesce(metadata ->> 'path', '') as path,
  count(*)::int8 as requests,
  count(*) filter (where ${num('status', 'int')} >= 400)::int8 as errors,
  avg(${num('duration_ms', 'float8')}) as avg_ms
${EVENTS_OF}
group by 1
order by requests desc, path
limit $5::int`,
    values: [...windowValues(w, 'edge'), REPORT_TOP_ROWS],
  };
}

/** Requests per response status (events without a numeric status are left out). */
export function apiStatusCodesQuery(w: ReportWindow): SqlQuery {
  return {
    text: `select status, count(*)::int8 as requests
from (select ${num('status', 'int')} as status ${EVENTS_OF}) e
where status is not null
group by status
order by requests desc, status`,
    values: windowValues(w, 'edge'),
  };
}

const BYTES_IN = `case when metadata ->> 'direction' = 'in' then coalesce(${num('bytes', 'int8')}, 0) else 0 end`;
const BYTES_OUT = `case when metadata ->> 'direction' = 'out' then coalesce(${num('bytes', 'int8')}, 0) else 0 end`;

/** Storage requests and bytes uploaded (in) and downloaded (out) per time bucket. */
export function storageSeriesQuery(w: ReportWindow): SqlQuery {
  const agg = `select date_trunc($5, "timestamp", 'UTC') as time,
    count(*) as requests, sum(${BYTES_IN}) as bytes_in, sum(${BYTES_OUT}) as bytes_out
  ${EVENTS_OF}
  group by 1`;
  return {
    text: seriesOver(
      agg,
      `coalesce(a.requests, 0)::int8 as requests, coalesce(a.bytes_in, 0)::int8 as bytes_in, coalesce(a.bytes_out, 0)::int8 as bytes_out`,
    ),
    values: [...windowValues(w, 'storage'), w.interval],
  };
}

/** Storage requests, errors and bytes per bucket, busiest first. */
export function storageBucketsQuery(w: ReportWindow): SqlQuery {
  return {
    text: `select metadata ->> 'bucket' as bucket,
  count(*)::int8 as requests,
  count(*) filter (where ${num('status', 'int')} >= 400)::int8 as errors,
  coalesce(sum(${BYTES_IN}), 0)::int8 as bytes_in,
  coalesce(sum(${BYTES_OUT}), 0)::int8 as bytes_out
${EVENTS_OF}
group by 1
order by requests desc, bucket nulls last
limit $5::int`,
    values: [...windowValues(w, 'storage'), REPORT_TOP_ROWS],
  };
}
