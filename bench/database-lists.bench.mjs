// Database pages benchmark (issue 14): GET /functions, /triggers and /indexes of pg-meta over real HTTP
// (called as the gateway calls it, `serviceClient`)
// on the catalog benchmark's 2,000-table database (plus 500 functions and 500 triggers), each against
// its raw catalog query (the same SQL, run directly with pg) in the same run, alternated run by run. Prints
// median times and the ratio route/raw (target: at most 1.5) and writes bench/results/database-lists.json.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fillDatabase } from './catalog.bench.mjs';
import { buildPgMeta, createProjectDatabase, median, PROJECT_REF, round, serviceClient, startPostgres, startService, writeResult } from './pg-meta-harness.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const catalog = (name) => require(path.join(root, 'services/pg-meta/dist/sql/catalog', name));

const RUNS = 40;
const WARM_UPS = 5;
const TARGET = 1.5;

/** 500 trigger functions and a trigger each, on the first schema's tables. */
async function addFunctionsAndTriggers(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`do $$ begin
      for i in 1..500 loop
        execute format('create function catalog_bench.%I() returns trigger language plpgsql as %L', 'touch_' || i, 'begin return new; end');
        execute format('create trigger %I before update on catalog_bench.%I for each row execute function catalog_bench.%I(%L)', 'touch_' || i, 't_' || i, 'touch_' || i, 'arg ' || i);
      end loop;
    end $$`);
    await client.query('analyze');
  } finally {
    await client.end();
  }
}

/**
 * The route and its raw query, alternated run by run (after warm-ups of both), so a slower moment of
 * the machine falls on both alike; medians of each.
 */
async function measurePair(http, urlPath, headers, client, query) {
  const routeTimes = [];
  const rawTimes = [];
  let routeRows = 0;
  let rawRows = 0;
  for (let i = 0; i < WARM_UPS + RUNS; i++) {
    let started = performance.now();
    const { rows } = await client.query(query.text, query.values);
    const rawMs = performance.now() - started;
    rawRows = rows.length;
    started = performance.now();
    const res = await http.request('GET', urlPath, headers());
    const routeMs = performance.now() - started;
    if (res.status !== 200) throw new Error(`${urlPath} answered ${res.status}: ${res.text.slice(0, 300)}`);
    routeRows = JSON.parse(res.text).length;
    if (i >= WARM_UPS) {
      rawTimes.push(rawMs);
      routeTimes.push(routeMs);
    }
  }
  return { route: { medianMs: round(median(routeTimes)), rows: routeRows }, raw: { medianMs: round(median(rawTimes)), rows: rawRows } };
}

export default async function databaseListsBench() {
  buildPgMeta();
  const server = await startPostgres();
  const stops = [];
  try {
    const project = await createProjectDatabase(server.url, 'database_lists_bench');
    stops.unshift(project.drop);
    await fillDatabase(project.url);
    await addFunctionsAndTriggers(project.url);
    const service = await startService(project.url);
    stops.unshift(service.stop);
    const client = new pg.Client({ connectionString: project.url });
    await client.connect();
    stops.unshift(() => client.end());

    // Called as the gateway calls pg-meta.
    const http = serviceClient(service.url);
    stops.unshift(() => http.close());
    const lists = [
      ['functions', catalog('functions.js').listFunctionsQuery({})],
      ['triggers', catalog('triggers.js').listTriggersQuery({})],
      ['indexes', catalog('indexes.js').listIndexesQuery({})],
    ];
    const results = [];
    for (const [name, query] of lists) {
      const { raw, route } = await measurePair(http, `/${PROJECT_REF}/${name}`, service.identity, client, query);
      if (raw.rows !== route.rows) throw new Error(`GET /${name} listed ${route.rows} rows, its query ${raw.rows}`);
      results.push({ request: `GET /${name}`, rows: route.rows, routeMs: route.medianMs, rawMs: raw.medianMs, ratio: round(route.medianMs / raw.medianMs, 2) });
    }
    console.log('');
    console.log('  | request | rows | route (ms) | raw catalog query (ms) | route / raw | target |');
    console.log('  |---|---|---|---|---|---|');
    for (const r of results) console.log(`  | ${r.request} | ${r.rows} | ${r.routeMs} | ${r.rawMs} | ${r.ratio} | <= ${TARGET} |`);
    const file = writeResult('database-lists', { database: { tables: 2000, functions: 500, triggers: 500 }, runs: RUNS, results, target: TARGET, meetsTarget: results.every((r) => r.ratio <= TARGET) });
    console.log(`  written: ${path.relative(process.cwd(), file)}`);
  } finally {
    for (const stop of stops) await stop();
    await server.stop();
  }
}

// `node bench/database-lists.bench.mjs` runs it alone.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  databaseListsBench().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
