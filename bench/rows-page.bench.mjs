// Table editor, one page of rows: a 100-row page with two filters and a sort on a 5,000,000-row table,
// through the pg-meta service over HTTP (catalog lookup, statement building, JSON reply) against the
// same SELECT run through raw `pg` on the same data in the same run. Target: service ≤ 1.2x raw.
import pg from 'pg';
import { buildPgMeta, createProjectDatabase, median, PROJECT_REF, round, startPostgres, startService, timed, writeResult } from './pg-meta-harness.mjs';

const ROWS = 5_000_000;
const RUNS = 15;
const WARMUP = 3;

export default async function rowsPage() {
  buildPgMeta();
  const server = await startPostgres();
  const db = await createProjectDatabase(server.url, 'bench_rows');
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  let service;
  try {
    console.log(`generating ${ROWS.toLocaleString('en-US')} rows...`);
    const generated = await timed(async () => {
      await client.query(`set maintenance_work_mem = '512MB'`);
      await client.query(`create table public.orders (id int8 not null, category text not null, amount int4 not null, created_at timestamptz not null, note text)`);
      await client.query(`
        insert into public.orders
        select g, 'c' || (g % 50), (g::int8 * 7919) % 1000, timestamptz '2024-01-01 00:00:00+00' + g * interval '1 second', 'note ' || g
        from generate_series(1, ${ROWS}) g`);
      await client.query('alter table public.orders add primary key (id)');
      await client.query('vacuum analyze public.orders');
    });
    console.log(`generated in ${round(generated.ms / 1000)} s`);
    const id = Number((await client.query(`select 'public.orders'::regclass::oid::int8 as id`)).rows[0].id);

    service = await startService(db.url);
    const body = JSON.stringify({
      filters: [
        { column: 'category', operator: 'eq', value: 'c7' },
        { column: 'amount', operator: 'gt', value: '500' },
      ],
      sorts: [{ column: 'created_at', ascending: false }],
      page: 1,
      limit: 100,
    });
    const viaService = async () => {
      const res = await fetch(`${service.url}/${PROJECT_REF}/tables/${id}/rows/select`, {
        method: 'POST',
        headers: { ...service.identity(), 'content-type': 'application/json' },
        body,
      });
      if (!res.ok) throw new Error(`service answered ${res.status}: ${await res.text()}`);
      return (await res.json()).rows;
    };
    const anchorSql = `select * from public.orders where category = 'c7' and amount > 500 order by created_at desc nulls last limit 100 offset 0`;
    const viaPg = async () => (await client.query(anchorSql)).rows;

    const [a, b] = [await viaService(), await viaPg()];
    if (a.length !== 100 || a.map((r) => Number(r.id)).join() !== b.map((r) => Number(r.id)).join()) throw new Error('service and raw pg returned different rows');
    for (let i = 0; i < WARMUP; i++) {
      await viaService();
      await viaPg();
    }

    const serviceMs = [];
    const pgMs = [];
    for (let i = 0; i < RUNS; i++) {
      serviceMs.push((await timed(viaService)).ms);
      pgMs.push((await timed(viaPg)).ms);
    }
    const result = {
      rows: ROWS,
      runs: RUNS,
      serviceMedianMs: round(median(serviceMs), 2),
      pgMedianMs: round(median(pgMs), 2),
      ratio: round(median(serviceMs) / median(pgMs), 3),
      target: '≤ 1.2',
    };
    console.table([
      { path: 'pg-meta over HTTP', 'median ms': result.serviceMedianMs },
      { path: 'raw pg (same SELECT)', 'median ms': result.pgMedianMs },
    ]);
    console.log(`ratio service / raw pg: ${result.ratio}x (target ${result.target})`);
    console.log(`results: ${writeResult('rows-page', result)}`);
  } finally {
    await service?.stop();
    await client.end();
    await db.drop();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await rowsPage();
