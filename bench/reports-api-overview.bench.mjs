// The api-overview report (requests, errors, p50/p95/p99 latency per hour, top paths, status codes) over
// 24 hours of 10,000,000 edge events of one project, through the logs service's HTTP route (the built
// service, listening on a port, reading the events as it does in production). Anchor, same run, same
// data: the service's own three statements sent straight to Postgres with `pg`, side by side as the
// route runs them. Reports the route's time (the issue asks for it) and the ratio.
import { cpus } from 'node:os';
import { DAY_MS, LOGS_REF as REF, logsDist, withLogsService } from './logs-harness.mjs';
import { median, round, timed, writeResult } from './pg-meta-harness.mjs';

const EVENTS = Number(process.env.BENCH_REPORT_EVENTS ?? 10_000_000);
const RUNS = 3;

export default async function reportsApiOverview() {
  const { reportWindow } = logsDist('routes/reports.js');
  const sql = logsDist('sql/reports.js');
  await withLogsService('bench_reports', async ({ pool, partitions, listen }) => {
    // Yesterday, midnight to midnight (UTC): one day partition, inside any retention.
    const to = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
    const from = new Date(to.getTime() - DAY_MS);
    const day = from.toISOString().slice(0, 10).replace(/-/g, '');
    await partitions.ensure([day]);

    const loadStart = performance.now();
    // Gateway-like events spread over the day: 20 paths, 2% 5xx, 5% 404, latencies 1–400 ms with a tail.
    // Loaded in slices on two connections (the machine has two cores).
    const SLICES = 10;
    const slice = Math.ceil(EVENTS / SLICES);
    const load = (k) =>
      pool.query(
        `insert into logs.events ("timestamp", source, project_ref, event_message, metadata)
         select $1::timestamptz + (g::float8 / $3) * interval '1 day', 'edge', $2, 'GET /rest/v1/t 200',
           jsonb_build_object('method', 'GET', 'path', '/rest/v1/table_' || (g % 20), 'status',
             case when g % 50 = 0 then 500 when g % 20 = 0 then 404 else 200 end,
             'duration_ms', round((1 + (g % 400) + case when g % 100 = 0 then 2000 else 0 end)::numeric, 1),
             'response_bytes', 512, 'query', null, 'user_agent', 'bench')
         from generate_series($4::int, least($5::int, $3::int) - 1) g`,
        [from.toISOString(), REF, EVENTS, k * slice, (k + 1) * slice],
      );
    let next = 0;
    await Promise.all([0, 1].map(async () => {
      while (next < SLICES) await load(next++);
    }));
    await pool.query('analyze logs.events');
    const loadSeconds = (performance.now() - loadStart) / 1000;
    console.log(`loaded ${EVENTS.toLocaleString()} edge events in ${round(loadSeconds)} s`);

    const { address, headers } = await listen();
    const routeUrl = `${address}/${REF}/reports/api-overview?from=${from.toISOString()}&to=${to.toISOString()}`;
    let reply;
    const viaRoute = async () => {
      const res = await fetch(routeUrl, { headers: headers() });
      reply = await res.json();
      if (!res.ok) throw new Error(`the report answered ${res.status}: ${JSON.stringify(reply)}`);
    };
    const w = reportWindow(REF, { from: from.toISOString(), to: to.toISOString() });
    const direct = () => Promise.all([sql.apiSeriesQuery(w), sql.apiTopPathsQuery(w), sql.apiStatusCodesQuery(w)].map((q) => pool.query(q.text, q.values)));

    // Warm-up (caches, plans), then alternate so both see the same machine state.
    await viaRoute();
    await direct();
    const routeMs = [];
    const directMs = [];
    for (let i = 0; i < RUNS; i++) {
      routeMs.push((await timed(viaRoute)).ms);
      directMs.push((await timed(direct)).ms);
    }
    if (reply.totals.requests !== EVENTS) throw new Error(`the report counted ${reply.totals.requests} requests, not ${EVENTS}`);

    const result = {
      events: EVENTS,
      range: { from: from.toISOString(), to: to.toISOString(), interval: reply.interval, points: reply.series.length },
      routeMs: round(median(routeMs)),
      rawPgMs: round(median(directMs)),
      ratio: round(median(routeMs) / median(directMs)),
      runs: { routeMs: routeMs.map(round), rawPgMs: directMs.map(round) },
      loadSeconds: round(loadSeconds),
      cpus: cpus().length,
    };
    console.table({
      'api-overview route': { 'median ms': result.routeMs },
      'same SQL via raw pg': { 'median ms': result.rawPgMs },
      ratio: { 'median ms': result.ratio },
    });
    console.log(`api-overview over 24 h of ${EVENTS.toLocaleString()} events: ${result.routeMs} ms (raw pg ${result.rawPgMs} ms, ratio ${result.ratio}x)`);
    console.log(`written to ${writeResult('reports-api-overview', result)}`);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await reportsApiOverview();
