// The api-overview report (requests, errors, p50/p95/p99 latency per hour, top paths, status codes) over
// 24 hours of 10,000,000 edge events of one project, through the logs service's HTTP route (the built
// service, listening on a port, reading the events as it does in production). Anchor, same run, same
// data: the service's own three statements sent straight to Postgres with `pg`, side by side as the
// route runs them. Reports the route's time (the issue asks for it) and the ratio.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { round, startPostgres, writeResult } from './pg-meta-harness.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EVENTS = Number(process.env.BENCH_REPORT_EVENTS ?? 10_000_000);
const RUNS = 3;
const REF = 'bench';
const DAY_MS = 86_400_000;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(work) {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

export default async function reportsApiOverview() {
  const kit = require(path.join(root, 'services/kit/dist/index.js'));
  const { TEST_SECRET } = require(path.join(root, 'services/kit/dist/testing.js'));
  const { buildApp } = require(path.join(root, 'services/logs/dist/app.js'));
  const { migrateLogs } = require(path.join(root, 'services/logs/dist/db/migrations.js'));
  const { PartitionManager } = require(path.join(root, 'services/logs/dist/db/partitions.js'));
  const { reportWindow } = require(path.join(root, 'services/logs/dist/routes/reports.js'));
  const sql = require(path.join(root, 'services/logs/dist/sql/reports.js'));

  const server = await startPostgres();
  const name = `bench_reports_${Date.now()}`;
  await kit.ensureDatabase(server.url, name);
  const url = kit.withDatabase(server.url, name);
  const pool = kit.createPool(url, 8);
  const db = kit.createDb(pool);
  let app;
  try {
    await migrateLogs(db);
    // Yesterday, midnight to midnight (UTC): one day partition, inside any retention.
    const to = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
    const from = new Date(to.getTime() - DAY_MS);
    const day = from.toISOString().slice(0, 10).replace(/-/g, '');
    await new PartitionManager(pool).ensure([day]);

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

    app = buildApp({ secret: TEST_SECRET, pool });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    // A signed identity lives 60 s, as the gateway's: each request gets a fresh one.
    const headers = () => ({ 'x-dash-identity': kit.signIdentity(TEST_SECRET, { kind: 'user', sub: 'bench', email: 'bench@example.com', projects: { [REF]: 'read_only' } }) });
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
      routeMs.push(await timed(viaRoute));
      directMs.push(await timed(direct));
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
      cpus: (await import('node:os')).cpus().length,
    };
    console.table({
      'api-overview route': { 'median ms': result.routeMs },
      'same SQL via raw pg': { 'median ms': result.rawPgMs },
      ratio: { 'median ms': result.ratio },
    });
    console.log(`api-overview over 24 h of ${EVENTS.toLocaleString()} events: ${result.routeMs} ms (raw pg ${result.rawPgMs} ms, ratio ${result.ratio}x)`);
    console.log(`written to ${writeResult('reports-api-overview', result)}`);
  } finally {
    await app?.close();
    await db.destroy().catch(() => {});
    await kit.dropDatabase(server.url, name).catch(() => {});
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await reportsApiOverview();
