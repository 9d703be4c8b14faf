// The data API (P9, issue 28), through the gateway at /p/<ref>/rest/v1 of the whole stack as `npm start` runs it:
// (1) a 100-row select with two levels of embedding and a filter on 1,000,000 books (anon key) against the
//     same single statement, built by the rest service's own builders (services/rest/dist) from the same
//     query string, run with `pg` on a pooled connection as anon inside a read-only transaction, as the
//     service runs it (the statement alone, outside a transaction, and the rest service called directly,
//     without the gateway, are printed beside it); target ≤ 1.3x;
// (2) 50 concurrent clients for 60 s on that request (DATA_API_BENCH_SECONDS shortens it): requests,
//     errors (must be 0, each kind printed), p50/p95/p99 latency, requests a second;
// (3) a 10,000-row insert in one request (service_role key, a JSON array, return=minimal) against the
//     service's own insert statement for the same body (one JSON parameter expanded by Postgres) run with
//     `pg` as service_role in a transaction (the rest service directly beside it); target ≤ 1.3x.
// The machine's load average is printed and kept with the results: other work on its cores slows the
// API's path (two more processes woken per request: the gateway and the rest service) more than pg's, so it
// weighs on the ratios. The service sends a read's whole transaction in one round trip; the anchor takes three.
// Data: authors (10,000) ← books (1,000,000, indexed author_id) ← reviews (2,000,000) → reviewers (1,000).
// Tables are made through the SQL route (owned by the project's admin, as a user's would be); the rows
// are loaded with `pg` as the superuser, which is quicker than the route and changes nothing measured.
// Env: DATA_API_BENCH_SECONDS, DATA_API_BENCH_PORT (the gateway's, default 28900), BENCH_NO_BUILD=1 (skip the turbo build).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, round, serviceClient, timed, writeResult } from './pg-meta-harness.mjs';
import { buildStack, REF, startStack } from './stack-harness.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const AUTHORS = 10_000;
const REVIEWERS = 1_000;
const BOOKS = 1_000_000;
const REVIEWS = 2_000_000;
const READ_RUNS = 50;
// Plenty: in a trial the gateway's path was still slower over its first few dozen requests.
const READ_WARMUP = 30;
const CLIENTS = 50;
const SECONDS = Number(process.env.DATA_API_BENCH_SECONDS) || 60;
// The stack's gateway port (it also takes the 19 above it and PORT+100..105): another run's may be in use.
const PORT = Number(process.env.DATA_API_BENCH_PORT) || 28900;
const INSERT_ROWS = 10_000;
const INSERT_RUNS = 7;
const INSERT_WARMUP = 2;
const SELECT = 'id,title,author:authors(name),reviews(stars,comment,reviewer:reviewers(name))';

const readPath = (author) => `books?select=${SELECT}&author_id=eq.${author}&limit=100`;
/** The author of run `i`: spread over the table, the same sequence for both sides. */
const authorOf = (i) => 1 + ((i * 7919) % AUTHORS);
const percentile = (sorted, p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);

const SCHEMA_SQL = `
  create table public.authors (id int8 primary key, name text not null);
  create table public.reviewers (id int8 primary key, name text not null);
  create table public.books (id int8 primary key, author_id int8 not null, title text not null, pages int4 not null, published date not null);
  create table public.reviews (id int8 primary key, book_id int8 not null, reviewer_id int8 not null, stars int2 not null, comment text not null);
  create table public.book_drafts (id int8 primary key, author_id int8 not null references public.authors, title text not null, pages int4 not null, published date not null);`;

const DATA_SQL = [
  `insert into public.authors select g, 'author ' || g from generate_series(1, ${AUTHORS}) g`,
  `insert into public.reviewers select g, 'reviewer ' || g from generate_series(1, ${REVIEWERS}) g`,
  `insert into public.books select g, 1 + g % ${AUTHORS}, 'book ' || g, 50 + g % 900, date '2000-01-01' + (g % 9000) from generate_series(1, ${BOOKS}) g`,
  `insert into public.reviews select g, 1 + g % ${BOOKS}, 1 + (g * 7) % ${REVIEWERS}, 1 + g % 5, 'review ' || g || ' of book ' || (1 + g % ${BOOKS}) from generate_series(1, ${REVIEWS}) g`,
  'create index books_author_id on public.books (author_id)',
  'create index reviews_book_id on public.reviews (book_id)',
  'alter table public.books add foreign key (author_id) references public.authors',
  'alter table public.reviews add foreign key (book_id) references public.books, add foreign key (reviewer_id) references public.reviewers',
  'grant select on public.authors, public.reviewers, public.books, public.reviews to anon',
  'grant select, insert, delete on public.book_drafts to service_role',
  'vacuum analyze public.authors, public.reviewers, public.books, public.reviews, public.book_drafts',
];

/** 10,000 draft rows as the JSON array both insert paths send. */
function draftsBody() {
  const rows = [];
  for (let i = 1; i <= INSERT_ROWS; i++) rows.push({ id: i, author_id: 1 + (i % AUTHORS), title: `draft ${i}`, pages: 100 + (i % 400), published: '2024-05-01' });
  return JSON.stringify(rows);
}

/** Requests on a keep-alive pool, `clients` at a time, until `ms` have passed: latencies and errors by kind. */
async function load(client, headers, clients, ms) {
  const latencies = [];
  const errors = new Map();
  const end = performance.now() + ms;
  let n = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const start = performance.now();
      try {
        const res = await client.request('GET', `/p/${REF}/rest/v1/${readPath(authorOf(n++))}`, headers);
        if (res.status !== 200) throw new Error(`${res.status} ${res.text.slice(0, 200)}`);
        latencies.push(performance.now() - start);
      } catch (error) {
        const kind = error instanceof Error ? error.message : String(error);
        errors.set(kind, (errors.get(kind) ?? 0) + 1);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, worker));
  return { latencies: latencies.sort((a, b) => a - b), errors, seconds: (performance.now() - started) / 1000 };
}

export default async function dataApi() {
  if (!process.env.BENCH_NO_BUILD) buildStack();
  const stack = await startStack(PORT);
  const { Pool } = require(path.join(root, 'node_modules', 'pg'));
  const rest = (file) => require(path.join(root, 'services/rest/dist', file));
  const { buildReadSql } = rest('query/sql.js');
  const { loadSchemaCache } = rest('schema/load.js');
  const { parseQuery, queryParameters } = rest('server/request.js');
  const { readQueryOf } = rest('routes/read.js');
  const { buildInsertSql } = rest('write/sql.js');
  const { readPayload } = rest('write/payload.js');
  const http = serviceClient(stack.url);
  // The rest service's own port (scripts/src/layout.ts: the gateway's + 15), for the gateway's share.
  const direct = serviceClient(`http://127.0.0.1:${Number(new URL(stack.url).port) + 15}`);
  let pool;
  try {
    const keys = await stack.api('GET', `/platform/projects/${REF}/api-keys`);
    const anon = { apikey: keys.anon, authorization: `Bearer ${keys.anon}` };
    const service = { apikey: keys.service_role, authorization: `Bearer ${keys.service_role}` };
    await stack.api('POST', `/pg-meta/${REF}/sql/run`, { query: SCHEMA_SQL });
    const [[database]] = (await stack.api('POST', `/pg-meta/${REF}/sql/run`, { query: 'select current_database()' })).results[0].rows;
    const secrets = JSON.parse(readFileSync(path.join(stack.dataDir, 'secrets.json'), 'utf8'));
    const port = readFileSync(path.join(stack.dataDir, 'postgres.port'), 'utf8').trim();
    pool = new Pool({ connectionString: `postgres://postgres:${encodeURIComponent(secrets.postgresPassword)}@127.0.0.1:${port}/${database}`, max: 2 });

    console.log(`generating ${AUTHORS} authors, ${BOOKS.toLocaleString('en-US')} books, ${REVIEWS.toLocaleString('en-US')} reviews...`);
    const generated = await timed(async () => {
      for (const sql of DATA_SQL) await pool.query(sql);
      // The event trigger already asked for this after the DDL; said again so the cache holds the foreign keys.
      await pool.query(`notify pgrst, 'reload schema'`);
    });
    console.log(`generated in ${round(generated.ms / 1000)} s`);

    // The anchor's statements, from the service's own builders and the same query strings.
    const cacheClient = await pool.connect();
    let cache;
    try {
      await cacheClient.query('begin isolation level repeatable read read only');
      cache = await loadSchemaCache(cacheClient, ['public']);
      await cacheClient.query('commit');
    } finally {
      cacheClient.release();
    }
    const api = { schema: 'public', settings: { dataApi: { maxRows: 1000, aggregatesEnabled: false } }, preferences: {} };
    const readStatement = (author) => {
      const parsed = parseQuery(queryParameters(`/${readPath(author)}`));
      return buildReadSql(cache, readQueryOf(api, 'books', parsed, undefined));
    };
    /** The statement in a read-only transaction as anon, as the service runs it (its begin sets the role the same way). */
    const inTransaction = async (role, readOnly, statement) => {
      const client = await pool.connect();
      try {
        await client.query(`begin isolation level read committed${readOnly ? ' read only' : ''}; select pg_catalog.set_config('role', '${role}', true)`);
        const { rows } = await client.query(statement.text, statement.values);
        await client.query('commit');
        return rows[0];
      } finally {
        client.release();
      }
    };

    const loadBefore = os.loadavg().map((n) => round(n, 2));
    // (1) one request against its statement.
    const viaApi = async (author, client = http, prefix = `/p/${REF}/rest`) => {
      const res = await client.request('GET', `${prefix}/v1/${readPath(author)}`, anon);
      if (res.status !== 200) throw new Error(`the data API answered ${res.status}: ${res.text.slice(0, 500)}`);
      return res.text;
    };
    const statements = Array.from({ length: READ_RUNS + READ_WARMUP }, (_, i) => readStatement(authorOf(i)));
    const viaPg = async (i) => (await inTransaction('anon', true, statements[i])).body;
    const viaPgBare = async (i) => (await pool.query(statements[i].text, statements[i].values)).rows[0].body;

    const viaRest = (author) => viaApi(author, direct, `/${REF}`);

    const [apiBody, pgBody, restBody] = [await viaApi(authorOf(0)), await viaPg(0), await viaRest(authorOf(0))];
    const sample = JSON.parse(apiBody);
    if (apiBody !== pgBody || restBody !== apiBody) throw new Error('the data API and its statement through pg answered different bodies');
    if (sample.length !== 100 || !sample[0].author?.name || sample[0].reviews.length !== 2 || !sample[0].reviews[0].reviewer?.name) {
      throw new Error(`unexpected body: ${apiBody.slice(0, 300)}`);
    }
    for (let i = 0; i < READ_WARMUP; i++) {
      await viaApi(authorOf(i));
      await viaRest(authorOf(i));
      await viaPg(i);
      await viaPgBare(i);
    }
    const apiMs = [];
    const restMs = [];
    const pgMs = [];
    const bareMs = [];
    for (let i = READ_WARMUP; i < READ_WARMUP + READ_RUNS; i++) {
      apiMs.push((await timed(() => viaApi(authorOf(i)))).ms);
      restMs.push((await timed(() => viaRest(authorOf(i)))).ms);
      pgMs.push((await timed(() => viaPg(i))).ms);
      bareMs.push((await timed(() => viaPgBare(i))).ms);
    }
    const read = {
      runs: READ_RUNS,
      apiMedianMs: round(median(apiMs), 2),
      restDirectMedianMs: round(median(restMs), 2),
      pgMedianMs: round(median(pgMs), 2),
      pgStatementAloneMedianMs: round(median(bareMs), 2),
      ratio: round(median(apiMs) / median(pgMs), 3),
      ratioToStatementAlone: round(median(apiMs) / median(bareMs), 3),
      target: '≤ 1.3',
    };

    // (2) 50 clients at once.
    console.log(`${CLIENTS} clients for ${SECONDS} s...`);
    const run = await load(http, anon, CLIENTS, SECONDS * 1000);
    const errors = [...run.errors.values()].reduce((a, b) => a + b, 0);
    const concurrent = {
      clients: CLIENTS,
      seconds: round(run.seconds, 1),
      requests: run.latencies.length + errors,
      errors,
      errorKinds: Object.fromEntries(run.errors),
      p50Ms: round(percentile(run.latencies, 50), 2),
      p95Ms: round(percentile(run.latencies, 95), 2),
      p99Ms: round(percentile(run.latencies, 99), 2),
      requestsPerSecond: round(run.latencies.length / run.seconds, 1),
    };

    // (3) a 10,000-row insert, the table emptied before each (untimed).
    const body = draftsBody();
    const insertStatement = buildInsertSql(cache, {
      query: readQueryOf(api, 'book_drafts', parseQuery([]), undefined),
      returning: 'minimal',
      payload: readPayload(body),
    });
    const insertViaApi = async (client = http, prefix = `/p/${REF}/rest`) => {
      const res = await client.request('POST', `${prefix}/v1/book_drafts`, { ...service, 'content-type': 'application/json', prefer: 'return=minimal' }, body);
      if (res.status !== 201) throw new Error(`the insert answered ${res.status}: ${res.text.slice(0, 500)}`);
    };
    const insertViaPg = async () => {
      const row = await inTransaction('service_role', false, insertStatement);
      if (Number(row.page_total) !== INSERT_ROWS) throw new Error(`pg inserted ${row.page_total} rows`);
    };
    const empty = () => pool.query('truncate public.book_drafts');
    const count = async () => Number((await pool.query('select count(*) from public.book_drafts')).rows[0].count);
    const insertViaRest = () => insertViaApi(direct, `/${REF}`);
    for (let i = 0; i < INSERT_WARMUP; i++) {
      for (const insert of [insertViaApi, insertViaRest, insertViaPg]) {
        await empty();
        await insert();
        if ((await count()) !== INSERT_ROWS) throw new Error('an insert did not write every row');
      }
    }
    const insertApiMs = [];
    const insertRestMs = [];
    const insertPgMs = [];
    for (let i = 0; i < INSERT_RUNS; i++) {
      await empty();
      insertApiMs.push((await timed(() => insertViaApi())).ms);
      await empty();
      insertRestMs.push((await timed(insertViaRest)).ms);
      await empty();
      insertPgMs.push((await timed(insertViaPg)).ms);
    }
    const insert = {
      rows: INSERT_ROWS,
      bodyBytes: Buffer.byteLength(body),
      runs: INSERT_RUNS,
      apiMedianMs: round(median(insertApiMs), 2),
      restDirectMedianMs: round(median(insertRestMs), 2),
      pgMedianMs: round(median(insertPgMs), 2),
      ratio: round(median(insertApiMs) / median(insertPgMs), 3),
      target: '≤ 1.3',
    };

    console.table([
      { measure: `select, 2 embedding levels, filter on ${BOOKS / 1e6}M: data API (gateway)`, 'median ms': read.apiMedianMs },
      { measure: '  rest service directly (no gateway)', 'median ms': read.restDirectMedianMs },
      { measure: '  same statement, pg, anon in a read-only transaction', 'median ms': read.pgMedianMs, ratio: read.ratio },
      { measure: '  same statement alone, pg', 'median ms': read.pgStatementAloneMedianMs, ratio: read.ratioToStatementAlone },
      { measure: `insert ${INSERT_ROWS} rows, one request: data API (gateway)`, 'median ms': insert.apiMedianMs },
      { measure: '  rest service directly (no gateway)', 'median ms': insert.restDirectMedianMs },
      { measure: '  same statement, pg, service_role in a transaction', 'median ms': insert.pgMedianMs, ratio: insert.ratio },
    ]);
    console.log(`ratios (target ≤ 1.3x): select ${read.ratio}x, insert ${insert.ratio}x`);
    console.table([
      {
        clients: CLIENTS,
        seconds: concurrent.seconds,
        requests: concurrent.requests,
        errors,
        'p50 ms': concurrent.p50Ms,
        'p95 ms': concurrent.p95Ms,
        'p99 ms': concurrent.p99Ms,
        'req/s': concurrent.requestsPerSecond,
      },
    ]);
    for (const [kind, n] of run.errors) console.log(`  error ×${n}: ${kind}`);
    const loadAfter = os.loadavg().map((n) => round(n, 2));
    console.log(`load average (1, 5, 15 min) on ${os.cpus().length} cores: ${loadBefore.join(', ')} before measuring, ${loadAfter.join(', ')} after`);
    const loadAverage = { before: loadBefore, after: loadAfter, cores: os.cpus().length };
    console.log(`results: ${writeResult('data-api', { authors: AUTHORS, books: BOOKS, reviews: REVIEWS, loadAverage, read, concurrent, insert })}`);
  } finally {
    await http.close();
    await direct.close();
    await pool?.end();
    await stack.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await dataApi();
