// "Errors in the last hour" over 10,000,000 edge events of one project (spread over the last 7 days, one
// partition a day) through the logs explorer's HTTP route (the built service, listening on a port: guard,
// read-only transaction as dash_logs_reader, the log_tables view). Anchor, same run, same data: the same
// SQL over logs.events with the view's filters written out, sent straight to Postgres with `pg`. The
// ratio compares the query alone (histogram off); the route with its histogram (as the page calls it)
// is reported beside it.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { round, startPostgres, writeResult } from './pg-meta-harness.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EVENTS = Number(process.env.BENCH_EXPLORER_EVENTS ?? 10_000_000);
const RUNS = 5;
const REF = 'bench';
const DAY_MS = 86_400_000;

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

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(work) {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

export default async function logsErrorsLastHour() {
  const kit = require(path.join(root, 'services/kit/dist/index.js'));
  const { TEST_SECRET } = require(path.join(root, 'services/kit/dist/testing.js'));
  const { buildApp } = require(path.join(root, 'services/logs/dist/app.js'));
  const { migrateLogs } = require(path.join(root, 'services/logs/dist/db/migrations.js'));
  const { PartitionManager } = require(path.join(root, 'services/logs/dist/db/partitions.js'));

  const server = await startPostgres();
  const name = `bench_explorer_${Date.now()}`;
  await kit.ensureDatabase(server.url, name);
  const url = kit.withDatabase(server.url, name);
  const pool = kit.createPool(url, 8);
  const db = kit.createDb(pool);
  let app;
  try {
    await migrateLogs(db);
    const now = Date.now();
    const start = new Date(now - 7 * DAY_MS);
    const days = [];
    for (let t = Math.floor(start.getTime() / DAY_MS) * DAY_MS; t <= now; t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10).replace(/-/g, ''));
    await new PartitionManager(pool).ensure(days);

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

    app = buildApp({ secret: TEST_SECRET, pool });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const headers = {
      'content-type': 'application/json',
      'x-dash-identity': kit.signIdentity(TEST_SECRET, { kind: 'user', sub: 'bench', email: 'bench@example.com', projects: { [REF]: 'read_only' } }),
    };
    // The last hour, fixed once so the route and raw pg read the same window.
    const range = { from: new Date(now - 3_600_000).toISOString(), to: new Date(now).toISOString() };
    let reply;
    const viaRoute = (histogram) => async () => {
      const res = await fetch(`${address}/${REF}/explorer/query`, { method: 'POST', headers, body: JSON.stringify({ sql: ERRORS_SQL, range, histogram }) });
      reply = await res.json();
      if (!res.ok) throw new Error(`the explorer answered ${res.status}: ${JSON.stringify(reply)}`);
    };
    let rawRows;
    const direct = async () => {
      rawRows = (await pool.query(RAW_SQL, [REF, range.from, range.to])).rows;
    };

    // Warm-up (caches, plans, the parser's WebAssembly), then alternate so both see the same machine state.
    await viaRoute(false)();
    await direct();
    const routeMs = [];
    const withHistogramMs = [];
    const directMs = [];
    for (let i = 0; i < RUNS; i++) {
      routeMs.push(await timed(viaRoute(false)));
      directMs.push(await timed(direct));
      withHistogramMs.push(await timed(viaRoute(true)));
    }
    const routeErrors = reply.rows.reduce((sum, row) => sum + row[2], 0);
    const rawErrors = rawRows.reduce((sum, row) => sum + Number(row.requests), 0);
    if (routeErrors !== rawErrors || routeErrors === 0) throw new Error(`the explorer counted ${routeErrors} errors, raw pg ${rawErrors}`);

    const result = {
      events: EVENTS,
      errorsInLastHour: routeErrors,
      eventsInLastHour: reply.histogram.buckets.reduce((sum, b) => sum + b.count, 0),
      routeMs: round(median(routeMs)),
      rawPgMs: round(median(directMs)),
      ratio: round(median(routeMs) / median(directMs)),
      routeWithHistogramMs: round(median(withHistogramMs)),
      runs: { routeMs: routeMs.map(round), rawPgMs: directMs.map(round), routeWithHistogramMs: withHistogramMs.map(round) },
      loadSeconds: round(loadSeconds),
      cpus: (await import('node:os')).cpus().length,
      loadavg: (await import('node:os')).loadavg().map(round),
    };
    console.table({
      'explorer route': { 'median ms': result.routeMs },
      'same SQL via raw pg': { 'median ms': result.rawPgMs },
      ratio: { 'median ms': result.ratio },
      'explorer route + histogram': { 'median ms': result.routeWithHistogramMs },
    });
    console.log(`errors in the last hour over ${EVENTS.toLocaleString()} events: explorer ${result.routeMs} ms, raw pg ${result.rawPgMs} ms, ratio ${result.ratio}x (target <= 1.2x); with the histogram ${result.routeWithHistogramMs} ms`);
    console.log(`written to ${writeResult('logs-errors-last-hour', result)}`);
  } finally {
    await app?.close();
    await db.destroy().catch(() => {});
    await kit.dropDatabase(server.url, name).catch(() => {});
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await logsErrorsLastHour();
