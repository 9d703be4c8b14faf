// Table editor, CSV export: 500,000 rows through the pg-meta service (COPY TO STDOUT streamed as the
// HTTP reply) against `psql \copy (...) to stdout csv` on the same data in the same run, plus the
// service's peak RSS while exporting (it runs in its own process). Target: service ≤ 1.5x psql.
import { spawn } from 'node:child_process';
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

const ROWS = 500_000;
const RUNS = 5;

export default async function csvExport() {
  buildPgMeta();
  const server = await startPostgres();
  const db = await createProjectDatabase(server.url, 'bench_export');
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  let service;
  try {
    await client.query(`
      create table public.events (id int8 primary key, kind text, amount numeric(12, 2), at timestamptz, payload jsonb, tags text[]);
      insert into public.events
      select g, 'kind, "' || (g % 13) || '"', (g % 100000) / 100.0, timestamptz '2024-01-01 00:00:00+00' + g * interval '1 minute',
             jsonb_build_object('n', g, 'label', 'row ' || g), array['a', 'b' || (g % 7)]
      from generate_series(1, ${ROWS}) g`);
    await client.query('vacuum analyze public.events');
    const id = Number((await client.query(`select 'public.events'::regclass::oid::int8 as id`)).rows[0].id);

    service = await startService(db.url);
    const viaService = async () => {
      const res = await fetch(`${service.url}/${PROJECT_REF}/tables/${id}/rows/export`, {
        method: 'POST',
        headers: { ...service.identity(), 'content-type': 'application/json' },
        body: '{}',
      });
      if (!res.ok) throw new Error(`service answered ${res.status}: ${await res.text()}`);
      return digest(res.body);
    };
    // The SELECT the service copies out (all columns, in primary-key order).
    const select = 'select * from "public"."events" order by "id" asc nulls last';
    const viaPsql = async () => {
      const child = spawn(process.env.PSQL ?? '/usr/bin/psql', [db.url, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', `\\copy (${select}) to stdout with (format csv, header true)`], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql exited with ${code}`)))));
      const result = await digest(child.stdout);
      await exited;
      return result;
    };

    const [a, b] = [await viaService(), await viaPsql()];
    if (a.sha256 !== b.sha256) throw new Error(`the service's CSV differs from psql's (${a.bytes} vs ${b.bytes} bytes)`);
    const idle = memoryOf(service.pid);

    const serviceMs = [];
    const psqlMs = [];
    let peakRssMb = 0;
    for (let i = 0; i < RUNS; i++) {
      resetPeakRss(service.pid);
      serviceMs.push((await timed(viaService)).ms);
      peakRssMb = Math.max(peakRssMb, memoryOf(service.pid).peakRssMb);
      psqlMs.push((await timed(viaPsql)).ms);
    }
    const result = {
      rows: ROWS,
      csvBytes: a.bytes,
      runs: RUNS,
      serviceMedianMs: round(median(serviceMs)),
      psqlMedianMs: round(median(psqlMs)),
      ratio: round(median(serviceMs) / median(psqlMs), 3),
      target: '≤ 1.5',
      serviceIdleRssMb: round(idle.rssMb),
      servicePeakRssMbDuringExport: round(peakRssMb),
    };
    console.table([
      { path: 'pg-meta export over HTTP', 'median ms': result.serviceMedianMs },
      { path: 'psql \\copy to stdout', 'median ms': result.psqlMedianMs },
    ]);
    console.log(`ratio service / psql: ${result.ratio}x (target ${result.target}); ${round(a.bytes / 1024 / 1024)} MB of CSV`);
    console.log(`service RSS: ${result.serviceIdleRssMb} MB idle, peak ${result.servicePeakRssMbDuringExport} MB while exporting`);
    console.log(`results: ${writeResult('csv-export', result)}`);
  } finally {
    await service?.stop();
    await client.end();
    await db.drop();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await csvExport();
