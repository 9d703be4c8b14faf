// Table editor, concurrent editors (issue 15, section 5): 50 editors for 60 s over real HTTP against
// pg-meta's row update route, on 5 rows so they collide all the time. Each editor reads a row, sends
// `n + 1` with `expected: { n }` (what it read), and on a 409 retries from the current row the refusal
// carries. At the end every row's counter must equal the updates acknowledged (200) for it: 0 lost
// updates, 0 errors (anything but 200 and 409). The anchor is the same load without `expected`, as a
// client without the guard (and Studio) sends it: there the counters fall behind the acknowledged
// updates, which are lost updates.
import pg from 'pg';
import { buildPgMeta, createProjectDatabase, PROJECT_REF, round, startPostgres, startService, writeResult } from './pg-meta-harness.mjs';

const EDITORS = Number(process.env.BENCH_EDITORS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const BASELINE_SECONDS = Number(process.env.BENCH_BASELINE_SECONDS ?? 20);
const ROWS = 5;

const percentile = (sorted, p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);

/** A small seeded generator, so runs pick rows the same way. */
function random(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Runs `EDITORS` editors for `seconds`. `guarded`: updates carry `expected` and a 409 is retried from
 * its current row; otherwise every update is blind.
 */
async function runEditors(service, tableId, seconds, guarded) {
  const base = `${service.url}/${PROJECT_REF}/tables/${tableId}/rows`;
  const acked = new Array(ROWS + 1).fill(0);
  const latencies = [];
  const errors = [];
  let conflicts = 0;
  let reads = 0;
  const deadline = Date.now() + seconds * 1000;

  const call = async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...service.identity(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  };
  const read = async (id) => {
    reads++;
    const reply = await call('POST', '/select', { filters: [{ column: 'id', operator: 'eq', value: String(id) }] });
    if (reply.status !== 200 || reply.body?.rows?.length !== 1) throw new Error(`read answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    return Number(reply.body.rows[0].n);
  };

  const editor = async (index) => {
    const next = random(index + 1);
    while (Date.now() < deadline) {
      const id = 1 + Math.floor(next() * ROWS);
      try {
        let n = await read(id);
        for (;;) {
          const started = process.hrtime.bigint();
          const reply = await call('PATCH', '', { match: { id }, values: { n: n + 1 }, ...(guarded ? { expected: { n } } : {}) });
          latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
          if (reply.status === 200) {
            acked[id]++;
            break;
          }
          if (reply.status === 409 && guarded && reply.body?.current?.row) {
            conflicts++;
            if (Date.now() >= deadline) break;
            n = Number(reply.body.current.row.n);
            continue;
          }
          errors.push(`${reply.status}: ${reply.body?.message ?? ''}`);
          break;
        }
      } catch (error) {
        errors.push(String(error?.message ?? error));
      }
    }
  };

  const started = Date.now();
  await Promise.all(Array.from({ length: EDITORS }, (_, i) => editor(i)));
  const elapsed = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { acked, conflicts, errors, reads, elapsed, latencies };
}

/** Compares each row's counter with the updates acknowledged for it. */
async function verify(client, acked) {
  const { rows } = await client.query('select id, n from public.counters order by id');
  let lost = 0;
  let unacknowledged = 0;
  const perRow = rows.map(({ id, n }) => {
    const final = Number(n);
    lost += Math.max(0, acked[id] - final);
    unacknowledged += Math.max(0, final - acked[id]);
    return { row: id, acknowledged: acked[id], counter: final };
  });
  return { lost, unacknowledged, perRow };
}

export default async function concurrentEditors() {
  buildPgMeta();
  const server = await startPostgres();
  const db = await createProjectDatabase(server.url, 'bench_editors');
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  let service;
  try {
    await client.query(`create table public.counters (id int primary key, n int8 not null default 0, note text)`);
    const reset = () => client.query(`truncate public.counters; insert into public.counters (id, note) select g, 'row ' || g from generate_series(1, ${ROWS}) g`);
    await reset();
    const tableId = Number((await client.query(`select 'public.counters'::regclass::oid::int8 as id`)).rows[0].id);
    service = await startService(db.url);

    console.log(`${EDITORS} editors, ${ROWS} rows, ${SECONDS} s with expected (the guard)...`);
    const guarded = await runEditors(service, tableId, SECONDS, true);
    const guardedCheck = await verify(client, guarded.acked);

    await reset();
    console.log(`the same without expected (no guard), ${BASELINE_SECONDS} s...`);
    const blind = await runEditors(service, tableId, BASELINE_SECONDS, false);
    const blindCheck = await verify(client, blind.acked);

    const summary = (run, check) => ({
      seconds: round(run.elapsed, 1),
      acknowledged: run.acked.reduce((a, b) => a + b, 0),
      conflicts: run.conflicts,
      errors: run.errors.length,
      lostUpdates: check.lost,
      writesNotAcknowledged: check.unacknowledged,
      updatesPerSecond: round(run.acked.reduce((a, b) => a + b, 0) / run.elapsed, 1),
      p50Ms: round(percentile(run.latencies, 50), 2),
      p95Ms: round(percentile(run.latencies, 95), 2),
    });
    const result = {
      editors: EDITORS,
      rows: ROWS,
      guarded: { ...summary(guarded, guardedCheck), perRow: guardedCheck.perRow, firstErrors: guarded.errors.slice(0, 5) },
      withoutGuard: { ...summary(blind, blindCheck), perRow: blindCheck.perRow, firstErrors: blind.errors.slice(0, 5) },
      target: 'guarded: 0 errors, 0 lost updates',
    };
    const row = (name, s) => ({
      run: name,
      's': s.seconds,
      'updates acknowledged': s.acknowledged,
      'conflicts (409, retried)': s.conflicts,
      errors: s.errors,
      'lost updates': s.lostUpdates,
      'p50 ms': s.p50Ms,
      'p95 ms': s.p95Ms,
    });
    console.table([row('with expected (guard)', result.guarded), row('without expected (anchor)', result.withoutGuard)]);
    if (guarded.errors.length) console.log(`first errors: ${guarded.errors.slice(0, 5).join(' | ')}`);
    const pass = result.guarded.errors === 0 && result.guarded.lostUpdates === 0 && result.guarded.writesNotAcknowledged === 0;
    console.log(
      `guard: ${result.guarded.errors} errors, ${result.guarded.lostUpdates} lost updates (target 0, 0): ${pass ? 'met' : 'NOT met'}; ` +
        `without it ${result.withoutGuard.lostUpdates} of ${result.withoutGuard.acknowledged} acknowledged updates were lost`,
    );
    console.log(`results: ${writeResult('concurrent-editors', result)}`);
  } finally {
    await service?.stop();
    await client.end();
    await db.drop();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await concurrentEditors();
