// Table editor, CSV import: a 1,000,000-row CSV file streamed through the pg-meta service (text/csv body
// into COPY FROM STDIN in one transaction) against `psql \copy ... from` of the same file into the same
// table in the same run. Target: service ≤ 2x psql. The same file imported with its last column skipped
// (the service's CSV parser drops it before COPY) is timed beside it, against the same psql anchor.
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { buildPgMeta, createProjectDatabase, median, memoryOf, PROJECT_REF, psql, resetPeakRss, round, startPostgres, startService, timed, writeResult } from './pg-meta-harness.mjs';

const ROWS = 1_000_000;
const RUNS = 3;
const COLUMNS = ['id', 'name', 'amount', 'at', 'doc'];

/** POSTs the file as a streamed text/csv body and returns the parsed JSON reply. */
function postFile(url, headers, file) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv', 'content-length': statSync(file).size } }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString();
        if (res.statusCode !== 200) reject(new Error(`service answered ${res.statusCode}: ${text}`));
        else resolve(JSON.parse(text));
      });
    });
    req.on('error', reject);
    pipeline(createReadStream(file, { highWaterMark: 256 * 1024 }), req).catch(reject);
  });
}

export default async function csvImport() {
  buildPgMeta();
  const server = await startPostgres();
  const db = await createProjectDatabase(server.url, 'bench_import');
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dash-bench-csv-'));
  const file = path.join(dir, 'rows.csv');
  let service;
  try {
    // The file: quoted text with commas and quotes, numbers, timestamps and JSON.
    psql(db.url, [
      '-c',
      `\\copy (select g as id, 'name, "' || g || '"' as name, (g % 100000) / 100.0 as amount, timestamptz '2024-01-01 00:00:00+00' + g * interval '1 second' as at, jsonb_build_object('n', g) as doc from generate_series(1, ${ROWS}) g) to '${file}' with (format csv, header true)`,
    ]);
    await client.query(`create table public.imports (id int8 primary key, name text, amount numeric(12, 2), at timestamptz, doc jsonb)`);
    const id = Number((await client.query(`select 'public.imports'::regclass::oid::int8 as id`)).rows[0].id);
    // Same file, `doc` skipped: every row goes through the CSV parser that drops a column.
    const skipQuery = new URLSearchParams({ columns: JSON.stringify([...COLUMNS.slice(0, -1), null]), header: 'true' }).toString();

    service = await startService(db.url);
    const query = new URLSearchParams({ columns: JSON.stringify(COLUMNS), header: 'true' }).toString();
    const viaService = async () => {
      const reply = await postFile(`${service.url}/${PROJECT_REF}/tables/${id}/rows/import?${query}`, service.identity(), file);
      if (reply.rows !== ROWS) throw new Error(`the service imported ${reply.rows} rows`);
    };
    const viaPsql = async () => {
      psql(db.url, ['-c', `\\copy public.imports (${COLUMNS.join(', ')}) from '${file}' with (format csv, header true)`]);
    };
    const reset = async () => {
      await client.query('truncate public.imports');
      await client.query('checkpoint');
    };
    const viaServiceSkipping = async () => {
      const reply = await postFile(`${service.url}/${PROJECT_REF}/tables/${id}/rows/import?${skipQuery}`, service.identity(), file);
      if (reply.rows !== ROWS) throw new Error(`the service imported ${reply.rows} rows`);
    };
    const imported = async () => Number((await client.query('select count(*) as n from public.imports')).rows[0].n);

    const serviceMs = [];
    const psqlMs = [];
    const skippingMs = [];
    let peakRssMb = 0;
    for (let i = 0; i < RUNS; i++) {
      await reset();
      resetPeakRss(service.pid);
      serviceMs.push((await timed(viaService)).ms);
      peakRssMb = Math.max(peakRssMb, memoryOf(service.pid).peakRssMb);
      if ((await imported()) !== ROWS) throw new Error('the service import left the wrong row count');
      await reset();
      psqlMs.push((await timed(viaPsql)).ms);
      if ((await imported()) !== ROWS) throw new Error('the psql import left the wrong row count');
      await reset();
      resetPeakRss(service.pid);
      skippingMs.push((await timed(viaServiceSkipping)).ms);
      peakRssMb = Math.max(peakRssMb, memoryOf(service.pid).peakRssMb);
      if ((await imported()) !== ROWS) throw new Error('the import skipping a column left the wrong row count');
    }
    const result = {
      rows: ROWS,
      csvBytes: statSync(file).size,
      runs: RUNS,
      serviceMedianMs: round(median(serviceMs)),
      psqlMedianMs: round(median(psqlMs)),
      ratio: round(median(serviceMs) / median(psqlMs), 3),
      target: '≤ 2',
      skippingColumnMedianMs: round(median(skippingMs)),
      skippingColumnRatio: round(median(skippingMs) / median(psqlMs), 3),
      servicePeakRssMbDuringImport: round(peakRssMb),
    };
    console.table([
      { path: 'pg-meta import over HTTP', 'median ms': result.serviceMedianMs },
      { path: 'psql \\copy from file', 'median ms': result.psqlMedianMs },
      { path: 'pg-meta import, last column skipped', 'median ms': result.skippingColumnMedianMs },
    ]);
    console.log(`ratio service / psql: ${result.ratio}x (target ${result.target}); ${round(result.csvBytes / 1024 / 1024)} MB of CSV`);
    console.log(`ratio service skipping a column / psql: ${result.skippingColumnRatio}x`);
    console.log(`service peak RSS while importing: ${result.servicePeakRssMbDuringImport} MB`);
    console.log(`results: ${writeResult('csv-import', result)}`);
  } finally {
    await service?.stop();
    await client.end();
    await db.drop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await csvImport();
