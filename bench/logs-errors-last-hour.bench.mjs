// "Errors in the last hour" over 10,000,000 edge events of one project (spread over the last 7 days, one
// partition a day) through the logs explorer's HTTP route (the built service, listening on a port: guard,
// read-only transaction as dash_logs_reader, the log_tables view). Anchor, same run, same data: the same
// SQL over logs.events with the view's filters written out, sent straight to Postgres with `pg`. The
// ratio compares the query alone (histogram off); the route with its histogram (as the page calls it)
// is reported beside it. The route is called as the gateway calls it (`serviceClient`).
import { cpus, loadavg } from 'node:os';
import { DAY_MS, LOGS_REF as REF, withLogsService } from './logs-harness.mjs';
import { median, round, serviceClient, timed, writeResult } from './pg-meta-harness.mjs';

const EVENTS = Number(process.env.BENCH_EXPLORER_EVENTS ?? 10_000_000);
const RUNS = 30;
/** Rounds of both sides before timing: the first reads after the load are slower on both (pages, plans). */
const WARM_UPS = 3;

const ERRORS_SQL = `select (metadata->>'status')::int as status, metadata->>'path' as path, count(*) as requests
from edge_logs
where (metadata->>'status')::int >= 500
group by 1, 2
order by requests desc`;

const RAW_SQL = `select (metadata->>'status')::int as status, metadata->>'path' as path, count(*) as requests
from logs.events
where source = 'edge' and project_ref = $1 and "timestamp" >= $2 and "timestamp" < $3
  and (metadata->>'status')::int >= 500
group by 1, 2
order by requests desc`;

export default async function logsErrorsLastHour() {
  await withLogsService('bench_explorer', async ({ pool, partitions, listen }) => {
    const now = Date.now();
    const start = new Date(now - 7 * DAY_MS);
    const days = [];
    for (let t = Math.floor(start.getTime() / DAY_MS) * DAY_MS; t <= now; t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10).replace(/-/g, ''));
    await partitions.ensure(days);

    const loadStart = performance.now();
    // Gateway-like events over the last 7 days, in time order: 20 paths, 2% 5xx, 5% 404.
    await pool.query(
      `insert into logs.events ("timestamp", source, project_ref, event_message, metadata)
       select $1::timestamptz + (g::float8 / $3) * ($4::timestamptz - $1::timestamptz), 'edge', $2, 'GET /rest/v1/t 200',
         jsonb_build_object('method', 'GET', 'path', '/rest/v1/table_' || (g % 20), 'status',
           case when g % 50 = 0 then 500 + (g / 50) % 4 when g % 20 = 0 then 404 else 200 end,
           'duration_ms', (1 + g % 400)::numeric, 'response_bytes', 512, 'query', null, 'user_agent', 'bench')
       from generate_series(0, $3 - 1) g`,
      [start.toISOString(), REF, EVENTS, new Date(now).toISOString()],
    );
    // Hint bits and statistics set once, so neither side pays for the load's first reads.
    await pool.query('vacuum analyze logs.events');
    const loadSeconds = (performance.now() - loadStart) / 1000;
    console.log(`loaded ${EVENTS.toLocaleString()} edge events over 7 days in ${round(loadSeconds)} s`);

    const { address, headers } = await listen();
    const http = serviceClient(address);
    // The last hour, fixed once so the route and raw pg read the same window.
    const range = { from: new Date(now - 3_600_000).toISOString(), to: new Date(now).toISOString() };
    let reply;
    const viaRoute = (histogram) => async () => {
      const res = await http.request('POST', `/${REF}/explorer/query`, headers(), JSON.stringify({ sql: ERRORS_SQL, range, histogram }));
      if (res.status !== 200) throw new Error(`the explorer answered ${res.status}: ${res.text.slice(0, 300)}`);
      reply = JSON.parse(res.text);
    };
    let rawRows;
    const direct = async () => {
      rawRows = (await pool.query(RAW_SQL, [REF, range.from, range.to])).rows;
    };

    // Warm-up (caches, plans, the parser's WebAssembly), then alternate so both see the same machine state.
    for (let i = 0; i < WARM_UPS; i++) {
      await viaRoute(false)();
      await direct();
    }
    const routeMs = [];
    const withHistogramMs = [];
    const directMs = [];
    for (let i = 0; i < RUNS; i++) {
      routeMs.push((await timed(viaRoute(false))).ms);
      directMs.push((await timed(direct)).ms);
      withHistogramMs.push((await timed(viaRoute(true))).ms);
    }
    await http.close();
    const routeErrors = reply.rows.reduce((sum, row) => sum + row[2], 0);
    const rawErrors = rawRows.reduce((sum, row) => sum + Number(row.requests), 0);
    if (routeErrors !== rawErrors || routeErrors === 0) throw new Error(`the explorer counted ${routeErrors} errors, raw pg ${rawErrors}`);

    const result = {
      events: EVENTS,
      errorsInLastHour: routeErrors,
      eventsInLastHour: reply.histogram.buckets.reduce((sum, b) => sum + b.count, 0),
      routeMs: round(median(routeMs)),
      rawPgMs: round(median(directMs)),
      ratio: round(median(routeMs) / median(directMs), 2),
      routeWithHistogramMs: round(median(withHistogramMs)),
      runs: { routeMs: routeMs.map(round), rawPgMs: directMs.map(round), routeWithHistogramMs: withHistogramMs.map(round) },
      loadSeconds: round(loadSeconds),
      cpus: cpus().length,
      loadavg: loadavg().map(round),
    };
    console.table({
      'explorer route': { 'median ms': result.routeMs },
      'same SQL via raw pg': { 'median ms': result.rawPgMs },
      ratio: { 'median ms': result.ratio },
      'explorer route + histogram': { 'median ms': result.routeWithHistogramMs },
    });
    console.log(`errors in the last hour over ${EVENTS.toLocaleString()} events: explorer ${result.routeMs} ms, raw pg ${result.rawPgMs} ms, ratio ${result.ratio}x (target <= 1.2x); with the histogram ${result.routeWithHistogramMs} ms`);
    console.log(`written to ${writeResult('logs-errors-last-hour', result)}`);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await logsErrorsLastHour();
