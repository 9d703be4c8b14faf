// Event collection ingest through the HTTP route, as an app sends events: NDJSON batches of 1,000 with a
// warehouse access token, through the gateway (/p/{ref}/analytics/v1/...) and the logs service, 4 requests
// in flight, for 30 s. Reports events/s (target: at least 20,000 sustained) and the logs service's RSS
// each second (target: flat). Anchor, same run, same events, same concurrency: the service's own
// multi-row insert (unnest) sent straight to Postgres with `pg`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { memoryOf, round, writeResult } from './pg-meta-harness.mjs';
import { buildStack, REF, startStack } from './stack-harness.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BATCH = 1_000;
const IN_FLIGHT = 4;
const SECONDS = 30;
const PATHS = ['/rest/v1/orders', '/rest/v1/users', '/auth/v1/token', '/storage/v1/object/avatars/a.png'];

/** A batch of gateway-like events of the last minutes (~200 bytes each), as objects. */
function batch(seed) {
  const now = Date.now();
  return Array.from({ length: BATCH }, (_, i) => {
    const n = seed * BATCH + i;
    const status = n % 50 === 0 ? 500 : n % 7 === 0 ? 404 : 200;
    const p = PATHS[n % PATHS.length];
    return {
      timestamp: new Date(now - ((n * 37) % 600_000)).toISOString(),
      event_message: `GET ${p} ${status}`,
      method: 'GET',
      path: p,
      status,
      duration_ms: (n % 900) / 10,
      user_id: `user-${n % 5000}`,
      region: 'eu-west-1',
    };
  });
}

/** Runs `send` with IN_FLIGHT workers until `deadline` or `maxEvents`; returns events sent and seconds taken. */
async function drive(send, { seconds, maxEvents = Infinity, onSecond = () => {} }) {
  let events = 0;
  let seed = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const ticker = setInterval(onSecond, 1000);
  try {
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async (_, worker) => {
        while (performance.now() < deadline && events < maxEvents) {
          const n = await send(worker, seed++);
          events += n;
        }
      }),
    );
  } finally {
    clearInterval(ticker);
  }
  return { events, seconds: (performance.now() - start) / 1000 };
}

export default async function logsIngest() {
  buildStack();
  // Collections are behind the warehouse flag, which the services enforce.
  const stack = await startStack(28800, { DASH_FEATURE_FLAGS: 'warehouse=on' });
  const { Pool } = require(path.join(root, 'node_modules', 'pg'));
  const { insertCollectionEventsQuery } = require(path.join(root, 'services/logs/dist/sql/warehouse.js'));
  let pool;
  try {
    const collection = await stack.api('POST', `/logs/${REF}/analytics/warehouse/collections`, { name: 'bench-ingest' });
    // Two senders, two workers each: each token's own rate limit (50,000 events/s) is not what is measured.
    const tokens = [];
    for (const description of ['bench sender a', 'bench sender b']) {
      tokens.push((await stack.api('POST', `/logs/${REF}/analytics/warehouse/access-tokens`, { description })).token);
    }
    const url = `${stack.url}/p/${REF}/analytics/v1/collections/${collection.token}/events`;
    // Bodies are made before timing: the sender's JSON work is not the route's.
    const bodies = Array.from({ length: 16 }, (_, i) => batch(i));
    const ndjson = bodies.map((events) => events.map((e) => JSON.stringify(e)).join('\n'));

    let refused = 0;
    const viaRoute = async (worker, seed) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens[worker % tokens.length]}`, 'content-type': 'application/x-ndjson' },
        body: ndjson[seed % ndjson.length],
      });
      const text = await res.text();
      if (res.status === 429) {
        refused++;
        await new Promise((resolve) => setTimeout(resolve, 100));
        return 0;
      }
      if (!res.ok) throw new Error(`ingest answered ${res.status}: ${text}`);
      return JSON.parse(text).accepted;
    };

    const secrets = JSON.parse(readFileSync(path.join(stack.dataDir, 'secrets.json'), 'utf8'));
    const port = readFileSync(path.join(stack.dataDir, 'postgres.port'), 'utf8').trim();
    pool = new Pool({ connectionString: `postgres://postgres:${encodeURIComponent(secrets.postgresPassword)}@127.0.0.1:${port}/dash_platform`, max: IN_FLIGHT });
    const rows = bodies.map((events) => events.map((e) => ({ timestamp: new Date(e.timestamp), eventMessage: e.event_message, metadata: e })));
    const direct = async (_worker, seed) => {
      const q = insertCollectionEventsQuery(collection.id, rows[seed % rows.length]);
      await pool.query(q.text, q.values);
      return BATCH;
    };

    // Warm-up: 3 s each (connections, partitions, caches, JIT).
    await drive(viaRoute, { seconds: 3 });
    await drive(direct, { seconds: 3 });

    const logsPid = stack.pidOf('logs');
    const rss = [round(memoryOf(logsPid).rssMb)];
    const route = await drive(viaRoute, { seconds: SECONDS, onSecond: () => rss.push(round(memoryOf(logsPid).rssMb)) });
    const anchor = await drive(direct, { seconds: SECONDS, maxEvents: route.events });

    const routeRate = route.events / route.seconds;
    const anchorRate = anchor.events / anchor.seconds;
    const result = {
      batch: BATCH,
      inFlight: IN_FLIGHT,
      routeEvents: route.events,
      routeSeconds: round(route.seconds, 2),
      routeEventsPerSecond: Math.round(routeRate),
      anchorEvents: anchor.events,
      anchorSeconds: round(anchor.seconds, 2),
      anchorEventsPerSecond: Math.round(anchorRate),
      ratio: round(routeRate / anchorRate, 2),
      refused429: refused,
      logsRssMbPerSecond: rss,
      // GC makes RSS a sawtooth: flat means the second half peaks no higher than the first.
      logsRssPeakFirstHalfMb: Math.max(...rss.slice(0, rss.length >> 1)),
      logsRssPeakSecondHalfMb: Math.max(...rss.slice(rss.length >> 1)),
      load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    };
    console.log(`ingest via gateway + logs service: ${result.routeEventsPerSecond} events/s (${route.events} events in ${result.routeSeconds} s; target >= 20000)`);
    console.log(`raw pg multi-row insert (anchor):  ${result.anchorEventsPerSecond} events/s (${anchor.events} events in ${result.anchorSeconds} s)`);
    console.log(`ratio route/anchor: ${result.ratio} of the anchor's rate; 429s: ${refused}`);
    console.log(`logs service RSS (MB, each second): ${rss.join(' ')}`);
    console.log(`RSS peak: first half ${result.logsRssPeakFirstHalfMb} MB, second half ${result.logsRssPeakSecondHalfMb} MB (target flat)`);
    console.log(`load average: ${result.load}`);
    console.log(`written to ${writeResult('logs-ingest', result)}`);
  } finally {
    await pool?.end();
    await stack.stop();
  }
}
