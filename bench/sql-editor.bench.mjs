// SQL editor (issue 11), in one run on the same data:
// (a) a 100,000-row, 10-column result through pg-meta's run route over HTTP (reply read and parsed)
//     against the same SELECT through raw `pg` (rows as arrays). Target: route ≤ 1.3x raw.
// (b) the export of a 1,000,000-row result as CSV through the export routes (prepare, then the
//     streamed download) against `psql -c "\copy (…) to stdout csv header"`, with the service's peak
//     RSS while exporting (it runs in its own process). Target: route ≤ 1.5x psql, memory flat.
//     The JSON export of the same result is timed once for its memory (no anchor).
import { spawn } from 'node:child_process';
import os from 'node:os';
import pg from 'pg';
import {
  buildPgMeta,
  createProjectDatabase,
  median,
  memoryOf,
  PROJECT_REF,
  resetPeakRss,
  round,
  startPostgres,
  startService,
  timed,
  writeResult,
  digest,
} from './pg-meta-harness.mjs';

const RESULT_ROWS = 100_000;
const EXPORT_ROWS = 1_000_000;
const RUN_RUNS = 9;
const EXPORT_RUNS = 5;
const WARMUP = 2;

export default async function sqlEditor() {
  buildPgMeta();
  const server = await startPostgres();
  const db = await createProjectDatabase(server.url, 'bench_sql');
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  let service;
  try {
    console.log(`generating ${EXPORT_ROWS.toLocaleString('en-US')} rows...`);
    await client.query(`
      create table public.events (id int8 primary key, kind text, amount numeric(12, 2), at timestamptz, score float8,
                                  label text, active bool, payload jsonb, tags text[], ref uuid);
      insert into public.events
      select g, 'kind, "' || (g % 13) || '"', (g % 100000) / 100.0, timestamptz '2024-01-01 00:00:00+00' + g * interval '1 minute',
             g / 7.0, 'label ' || g, g % 2 = 0, jsonb_build_object('n', g, 'label', 'row ' || g), array['a', 'b' || (g % 7)],
             md5(g::text)::uuid
      from generate_series(1, ${EXPORT_ROWS}) g`);
    await client.query('vacuum analyze public.events');
    service = await startService(db.url);
    // Signed identities live 60 seconds: a fresh one for each request.
    const headers = () => ({ ...service.identity(), 'content-type': 'application/json' });

    // (a) The run route against raw pg.
    const resultSql = `select * from public.events where id <= ${RESULT_ROWS} order by id`;
    const runRoute = async () => {
      const res = await fetch(`${service.url}/${PROJECT_REF}/sql/run`, { method: 'POST', headers: headers(), body: JSON.stringify({ query: resultSql }) });
      if (!res.ok) throw new Error(`run answered ${res.status}: ${await res.text()}`);
      return res;
    };
    // Rows in hand as JavaScript values, as raw pg gives them; and, for the service's own share, the
    // reply's last byte received (the browser's JSON.parse is in the time-to-first-rows figure).
    const viaRoute = async () => (await (await runRoute()).json()).results[0].rows;
    const viaRouteBytes = async () => (await (await runRoute()).arrayBuffer()).byteLength;
    const viaPg = async () => (await client.query({ text: resultSql, rowMode: 'array' })).rows;
    const [routeRows, pgRows] = [await viaRoute(), await viaPg()];
    if (routeRows.length !== RESULT_ROWS || pgRows.length !== RESULT_ROWS || routeRows[RESULT_ROWS - 1][0] !== String(pgRows[RESULT_ROWS - 1][0])) {
      throw new Error(`the run route and raw pg returned different rows (${routeRows.length} vs ${pgRows.length})`);
    }
    for (let i = 0; i < WARMUP; i++) {
      await viaRoute();
      await viaPg();
    }
    const routeMs = [];
    const routeBytesMs = [];
    const pgMs = [];
    let runPeakRssMb = 0;
    let replyBytes = 0;
    for (let i = 0; i < RUN_RUNS; i++) {
      resetPeakRss(service.pid);
      routeMs.push((await timed(viaRoute)).ms);
      runPeakRssMb = Math.max(runPeakRssMb, memoryOf(service.pid).peakRssMb);
      const received = await timed(viaRouteBytes);
      routeBytesMs.push(received.ms);
      replyBytes = received.result;
      pgMs.push((await timed(viaPg)).ms);
    }

    // (b) The CSV export against psql \copy.
    const exportSql = 'select * from public.events order by id';
    const viaExport = async (format) => {
      const prepared = await fetch(`${service.url}/${PROJECT_REF}/sql/exports`, { method: 'POST', headers: headers(), body: JSON.stringify({ query: exportSql, format }) });
      if (prepared.status !== 201) throw new Error(`prepareExport answered ${prepared.status}: ${await prepared.text()}`);
      const { token } = await prepared.json();
      const res = await fetch(`${service.url}/${PROJECT_REF}/sql/exports/${token}`, { headers: service.identity() });
      if (!res.ok) throw new Error(`downloadExport answered ${res.status}: ${await res.text()}`);
      return digest(res.body);
    };
    const viaPsql = async () => {
      const child = spawn(process.env.PSQL ?? '/usr/bin/psql', [db.url, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', `\\copy (${exportSql}) to stdout with (format csv, header true)`], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql exited with ${code}`)))));
      const result = await digest(child.stdout);
      await exited;
      return result;
    };
    const [a, b] = [await viaExport('csv'), await viaPsql()];
    if (a.sha256 !== b.sha256) throw new Error(`the export's CSV differs from psql's (${a.bytes} vs ${b.bytes} bytes)`);
    const idle = memoryOf(service.pid);
    const exportMs = [];
    const psqlMs = [];
    let exportPeakRssMb = 0;
    for (let i = 0; i < EXPORT_RUNS; i++) {
      resetPeakRss(service.pid);
      exportMs.push((await timed(() => viaExport('csv'))).ms);
      exportPeakRssMb = Math.max(exportPeakRssMb, memoryOf(service.pid).peakRssMb);
      psqlMs.push((await timed(viaPsql)).ms);
    }
    resetPeakRss(service.pid);
    const json = await timed(() => viaExport('json'));
    const jsonPeakRssMb = memoryOf(service.pid).peakRssMb;

    const result = {
      // Other work on the machine skews both sides of each ratio; the 1-minute load says how much.
      loadAverage: round(os.loadavg()[0], 2),
      run: {
        rows: RESULT_ROWS,
        columns: 10,
        runs: RUN_RUNS,
        replyBytes,
        routeMedianMs: round(median(routeMs)),
        routeReceivedMedianMs: round(median(routeBytesMs)),
        pgMedianMs: round(median(pgMs)),
        ratio: round(median(routeMs) / median(pgMs), 3),
        ratioReceived: round(median(routeBytesMs) / median(pgMs), 3),
        target: '≤ 1.3',
        servicePeakRssMb: round(runPeakRssMb),
      },
      export: {
        rows: EXPORT_ROWS,
        csvBytes: a.bytes,
        runs: EXPORT_RUNS,
        routeMedianMs: round(median(exportMs)),
        psqlMedianMs: round(median(psqlMs)),
        ratio: round(median(exportMs) / median(psqlMs), 3),
        target: '≤ 1.5',
        serviceIdleRssMb: round(idle.rssMb),
        servicePeakRssMbDuringExport: round(exportPeakRssMb),
        json: { bytes: json.result.bytes, ms: round(json.ms), servicePeakRssMb: round(jsonPeakRssMb) },
      },
    };
    console.table([
      { path: `run route over HTTP, ${RESULT_ROWS.toLocaleString('en-US')} rows, reply parsed`, 'median ms': result.run.routeMedianMs },
      { path: 'run route over HTTP, reply received', 'median ms': result.run.routeReceivedMedianMs },
      { path: 'raw pg, same SELECT (rows as arrays)', 'median ms': result.run.pgMedianMs },
      { path: `CSV export over HTTP, ${EXPORT_ROWS.toLocaleString('en-US')} rows`, 'median ms': result.export.routeMedianMs },
      { path: 'psql \\copy to stdout', 'median ms': result.export.psqlMedianMs },
      { path: 'JSON export over HTTP (once, no anchor)', 'median ms': result.export.json.ms },
    ]);
    console.log(
      `run: route / raw pg ${result.run.ratio}x parsed, ${result.run.ratioReceived}x received (target ${result.run.target}); ${round(replyBytes / 1024 / 1024)} MB of JSON; service peak RSS ${result.run.servicePeakRssMb} MB`,
    );
    console.log(`export: route / psql ${result.export.ratio}x (target ${result.export.target}); ${round(a.bytes / 1024 / 1024)} MB of CSV`);
    console.log(
      `service RSS: ${result.export.serviceIdleRssMb} MB before exporting, peak ${result.export.servicePeakRssMbDuringExport} MB during CSV exports, ${result.export.json.servicePeakRssMb} MB during the JSON export`,
    );
    console.log(`load average at the end: ${result.loadAverage}`);
    console.log(`results: ${writeResult('sql-editor', result)}`);
  } finally {
    await service?.stop();
    await client.end();
    await db.drop();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await sqlEditor();
