// Issue 15 §5, Postgres restarted under load: the whole stack as `npm start` runs it, with writers and
// readers on several services at once (table editor row inserts through pg-meta, profile reads from the
// platform, uploads to storage through the gateway, event ingest straight into the logs service), while
// the stack's embedded Postgres restarts (fast stop, start on the same port) RESTARTS times. Prints per
// service: requests, 2xx, 503s (each must carry the message), other errors and dropped connections, the
// time from Postgres accepting connections again to the service's first success, and acknowledged writes
// lost (read back from the database afterwards; must be 0). Targets: 0 other errors, 0 lost, first
// success within 5 s. Writes bench/results/postgres-restart.json.
//
// The restart is start.ts's SIGUSR2 hook, on only with DASH_ALLOW_POSTGRES_RESTART=1 (set here).
// Env: BENCH_RESTART_PORT (gateway port, default 28800), BENCH_NO_BUILD=1 (skip the turbo build).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { writeResult } from './pg-meta-harness.mjs';
import { buildStack, REF, startStack } from './stack-harness.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PORT = Number(process.env.BENCH_RESTART_PORT) || 28800;
const RESTARTS = 2;
const WARM_MS = 3000;
/** Load kept on after every service has succeeded again, before the next restart or the end. */
const AFTER_MS = 3000;
const BOUND_MS = 5000;
const GIVE_UP_MS = 30_000;
const TABLE = 'bench_restart';
const BUCKET = 'bench-restart';
const UPLOAD = Buffer.alloc(4096, 'x');

export default async function postgresRestart() {
  if (!process.env.BENCH_NO_BUILD) buildStack();
  process.env.DASH_ALLOW_POSTGRES_RESTART = '1';
  const stack = await startStack(PORT);
  const { Client } = require(path.join(root, 'node_modules', 'pg'));
  const { signIdentity, DATABASE_UNAVAILABLE } = require(path.join(root, 'services/kit/dist/index.js'));
  const clients = [];
  try {
    // Fixtures: a table for row inserts, a bucket for uploads.
    await stack.api('POST', `/pg-meta/${REF}/sql/run`, { query: `create table public.${TABLE} (id int primary key, note text not null)` });
    const [[tableId, database]] = (await stack.api('POST', `/pg-meta/${REF}/sql/run`, { query: `select 'public.${TABLE}'::regclass::oid::int, current_database()` })).results[0].rows;
    await stack.api('POST', `/storage/${REF}/buckets`, { id: BUCKET, public: false });
    const secrets = JSON.parse(readFileSync(path.join(stack.dataDir, 'secrets.json'), 'utf8'));
    const pgPort = readFileSync(path.join(stack.dataDir, 'postgres.port'), 'utf8').trim();
    const connect = async (db) => {
      const client = new Client({ connectionString: `postgres://postgres:${encodeURIComponent(secrets.postgresPassword)}@127.0.0.1:${pgPort}/${db}` });
      await client.connect();
      clients.push(client);
      return client;
    };

    const json = { 'content-type': 'application/json' };
    const services = [
      {
        name: 'pg-meta (row inserts)',
        workers: 4,
        send: (n) => fetch(`${stack.url}/api/pg-meta/${REF}/tables/${tableId}/rows`, { method: 'POST', headers: { cookie: stack.cookie, ...json }, body: JSON.stringify({ values: { id: n, note: `row ${n}` } }) }),
        stored: async (ids) => (await (await connect(database)).query(`select id from public.${TABLE} where id = any($1)`, [ids])).rows.map((r) => r.id),
      },
      {
        name: 'platform (profile reads)',
        workers: 2,
        send: () => fetch(`${stack.url}/api/platform/profile`, { headers: { cookie: stack.cookie } }),
      },
      {
        name: 'storage (uploads)',
        workers: 3,
        send: (n) =>
          fetch(`${stack.url}/api/storage/${REF}/buckets/${BUCKET}/objects/upload?path=${encodeURIComponent(`restart/f-${n}.txt`)}`, {
            method: 'POST',
            headers: { cookie: stack.cookie, 'content-type': 'text/plain' },
            body: UPLOAD,
          }),
        stored: async (ids) => {
          const names = ids.map((n) => `restart/f-${n}.txt`);
          const { rows } = await (await connect(database)).query('select name from storage.objects where bucket_id = $1 and name = any($2)', [BUCKET, names]);
          return rows.map((r) => Number(/f-(\d+)\.txt$/.exec(r.name)[1]));
        },
      },
      {
        name: 'logs (ingest)',
        workers: 2,
        send: (n) =>
          fetch(`http://127.0.0.1:${PORT + 14}/internal/events`, {
            method: 'POST',
            headers: { ...json, 'x-dash-identity': signIdentity(secrets.internalSecret, { kind: 'service', sub: 'bench' }) },
            body: JSON.stringify({ events: [{ source: 'edge', project_ref: REF, timestamp: new Date().toISOString(), event_message: `restart-bench ${n}`, metadata: { bench: 'restart' } }] }),
          }),
        stored: async (ids) => {
          const { rows } = await (await connect('dash_platform')).query('select event_message from logs.events where event_message = any($1)', [ids.map((n) => `restart-bench ${n}`)]);
          return rows.map((r) => Number(r.event_message.split(' ')[1]));
        },
      },
    ];

    const pidsBefore = ['platform', 'pg-meta', 'storage', 'logs', 'gateway'].map((name) => stack.pidOf(name));
    let nextId = 1;
    let running = true;
    for (const service of services) service.outcomes = [];
    const worker = async (service) => {
      while (running) {
        const n = nextId++;
        const sentAt = performance.now();
        const outcome = { n, sentAt };
        try {
          const res = await service.send(n);
          outcome.status = res.status;
          outcome.retryAfter = res.headers.get('retry-after');
          const text = await res.text();
          if (res.status >= 300) outcome.message = safeMessage(text);
        } catch (error) {
          outcome.failure = String(error.cause?.code ?? error.cause ?? error.message);
        }
        outcome.answeredAt = performance.now();
        service.outcomes.push(outcome);
        if (!(outcome.status < 300)) await delay(50);
      }
    };
    const running$ = services.flatMap((service) => Array.from({ length: service.workers }, () => worker(service)));

    // The launcher prints `Postgres restarted in N ms` once the server accepts connections again.
    const restartedLines = [];
    stack.launcher.stdout.on('data', (chunk) => {
      for (const line of String(chunk).split('\n')) {
        const match = /Postgres restarted in (\d+) ms/.exec(line);
        if (match) restartedLines.push({ at: performance.now(), downMs: Number(match[1]) });
      }
    });

    const restarts = [];
    await delay(WARM_MS);
    for (let r = 0; r < RESTARTS; r++) {
      const before = restartedLines.length;
      const signalAt = performance.now();
      process.kill(stack.launcher.pid, 'SIGUSR2');
      while (restartedLines.length === before && performance.now() - signalAt < GIVE_UP_MS) await delay(5);
      const line = restartedLines[before];
      if (!line) throw new Error('the stack did not report its Postgres restarted');
      const upAt = line.at;
      const firstSuccess = {};
      while (performance.now() - upAt < GIVE_UP_MS) {
        for (const service of services) {
          firstSuccess[service.name] ??= service.outcomes.find((o) => o.sentAt >= upAt && o.status < 300);
        }
        if (services.every((s) => firstSuccess[s.name])) break;
        await delay(10);
      }
      restarts.push({
        stopToAcceptingMs: line.downMs,
        firstSuccessMs: Object.fromEntries(services.map((s) => [s.name, firstSuccess[s.name] ? Math.round(firstSuccess[s.name].answeredAt - upAt) : null])),
      });
      await delay(AFTER_MS);
    }
    running = false;
    await Promise.all(running$);
    const pidsAfter = ['platform', 'pg-meta', 'storage', 'logs', 'gateway'].map((name) => stack.pidOf(name));

    const rows = [];
    for (const service of services) {
      const o = service.outcomes;
      const ok = o.filter((x) => x.status < 300);
      const unavailable = o.filter((x) => x.status === 503);
      const withMessage = unavailable.filter((x) => x.message === DATABASE_UNAVAILABLE && x.retryAfter);
      const other = o.filter((x) => x.status !== undefined && x.status >= 300 && x.status !== 503);
      const dropped = o.filter((x) => x.failure !== undefined);
      let lost = null;
      if (service.stored) {
        const acked = ok.map((x) => x.n);
        const found = new Set(await service.stored(acked));
        lost = acked.filter((n) => !found.has(n)).length;
      }
      rows.push({
        service: service.name,
        requests: o.length,
        ok: ok.length,
        unavailable: unavailable.length,
        unavailableWithMessage: withMessage.length,
        otherErrors: other.length,
        otherSamples: [...new Set(other.map((x) => `${x.status} ${x.message}`))].slice(0, 5),
        dropped: dropped.length,
        droppedSamples: [...new Set(dropped.map((x) => x.failure))].slice(0, 5),
        firstSuccessMs: restarts.map((r) => r.firstSuccessMs[service.name]),
        acknowledgedWrites: service.stored ? ok.length : null,
        lost,
      });
    }

    console.log(`Postgres restarted ${RESTARTS} times under load (stop -m fast, start): ${restarts.map((r) => `${r.stopToAcceptingMs} ms`).join(', ')} from stop to accepting connections`);
    console.log('  | service | requests | 2xx | 503 (with message) | other errors | dropped | first success after restart (ms) | acknowledged writes | lost |');
    for (const r of rows) {
      console.log(
        `  | ${r.service} | ${r.requests} | ${r.ok} | ${r.unavailable} (${r.unavailableWithMessage}) | ${r.otherErrors} | ${r.dropped} | ${r.firstSuccessMs.join(', ')} | ${r.acknowledgedWrites ?? '-'} | ${r.lost ?? '-'} |`,
      );
      for (const sample of [...r.otherSamples, ...r.droppedSamples]) console.log(`      ${r.service}: ${sample}`);
    }
    const servicesRestarted = pidsBefore.filter((pid, i) => pid !== pidsAfter[i]).length;
    console.log(`  service processes restarted: ${servicesRestarted}`);
    const meetsTarget =
      servicesRestarted === 0 &&
      rows.every((r) => r.otherErrors === 0 && r.dropped === 0 && r.unavailable === r.unavailableWithMessage && (r.lost ?? 0) === 0 && r.firstSuccessMs.every((ms) => ms !== null && ms <= BOUND_MS));
    console.log(`  target (0 other errors, 0 dropped, 503s with message, 0 lost, first success <= ${BOUND_MS} ms): ${meetsTarget ? 'met' : 'NOT met'}`);
    const file = writeResult('postgres-restart', { restarts: RESTARTS, stopToAcceptingMs: restarts.map((r) => r.stopToAcceptingMs), services: rows, servicesRestarted, boundMs: BOUND_MS, meetsTarget });
    console.log(`results: ${file}`);
  } finally {
    for (const client of clients) await client.end().catch(() => {});
    await stack.stop();
  }
}

function safeMessage(text) {
  try {
    return JSON.parse(text).message;
  } catch {
    return text.slice(0, 200);
  }
}
