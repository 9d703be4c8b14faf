// Cold load of the table editor (issue 16 §5): a fresh Chromium context (empty cache) opens a table in the
// table editor through the stack as `npm start` runs it (the shell from the gateway, the remote from its
// own static server), until the grid's first row is drawn. Printed: the bytes over the wire (encoded, as
// Chromium's network layer counts them), the JavaScript requests and the time to the first row, with and
// without compression (`Accept-Encoding: identity`). The anchor, measured in the same run on the same
// stack: the shell and the table editor built as one webpack app without federation
// (bench/single-bundle/), served by a second gateway the same way, compression included.
// Target: federation costs at most 10% more bytes than the single bundle. Printed beside it, the floor of
// that comparison: the compressed bytes of the Module Federation runtime alone (the shell's copy, found
// through its source map, and the remote's remoteEntry.js), which any federated build of these screens
// with @module-federation/enhanced downloads and the single bundle does not.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { SourceMapConsumer } from 'source-map-js';
import { median, round, writeResult } from './pg-meta-harness.mjs';
import { buildStack, REF, startStack } from './stack-harness.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const singleDir = path.join(root, 'bench', 'single-bundle');
const PORT = 29200;
const SINGLE_PORT = PORT + 50;
const RUNS = 3;
const TABLE = 'cold_load_orders';

/**
 * The compressed size (KB) of the code a built script holds from the federation runtime's packages
 * (`@module-federation/*`), cut out through its source map and compressed alone at the quality the build
 * uses. Webpack's own runtime additions for federation are not counted, so this is a lower bound.
 */
function federationRuntimeKB(script) {
  const code = readFileSync(script, 'utf8').split('\n');
  const map = new SourceMapConsumer(JSON.parse(readFileSync(`${script}.map`, 'utf8')));
  const mappings = [];
  map.eachMapping((mapping) => mappings.push(mapping), null, SourceMapConsumer.GENERATED_ORDER);
  let runtime = '';
  mappings.forEach((mapping, i) => {
    if (!mapping.source?.includes('node_modules/@module-federation/')) return;
    const line = code[mapping.generatedLine - 1] ?? '';
    const next = mappings[i + 1];
    runtime += line.slice(mapping.generatedColumn, next?.generatedLine === mapping.generatedLine ? next.generatedColumn : line.length);
  });
  return brotliCompressSync(runtime, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length / 1024;
}

function buildSingleBundle() {
  execFileSync('npx', ['webpack', '-c', path.join(singleDir, 'webpack.config.js'), '--mode', 'production'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  // Compressed as `npm start` compresses the shell's build, by the same function.
  const { precompressFolder } = require(path.join(root, 'services', 'kit', 'dist', 'static-files.js'));
  precompressFolder(path.join(singleDir, 'dist'));
}

/** A second gateway on the same services, serving the single-bundle build as its shell. */
async function startSingleBundleGateway(stack) {
  const { internalSecret } = JSON.parse(readFileSync(path.join(stack.dataDir, 'secrets.json'), 'utf8'));
  const upstream = (offset) => `http://127.0.0.1:${PORT + offset}`;
  const child = spawn(process.execPath, [path.join(root, 'services', 'gateway', 'dist', 'main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(SINGLE_PORT),
      DASH_INTERNAL_SECRET: internalSecret,
      DASH_PLATFORM_URL: upstream(11),
      DASH_PG_META_URL: upstream(12),
      DASH_STORAGE_URL: upstream(13),
      DASH_LOGS_URL: upstream(14),
      DASH_REST_URL: upstream(15),
      DASH_GRAPHQL_URL: upstream(16),
      DASH_MAIL_URL: upstream(18),
      DASH_AUTH_URL: upstream(17),
      DASH_SHELL_DIR: path.join(singleDir, 'dist'),
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${SINGLE_PORT}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/**
 * One cold visit: a new context, the session cookie, the table's page until its first data row is drawn,
 * then until the network is idle. Every response is counted by what Chromium received for it.
 */
async function coldVisit(browser, { url, cookie, tableId, identity }) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const [name, value] = cookie.split('=');
  await context.addCookies([{ name, value, url }]);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  if (identity) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
  const responses = new Map();
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    responses.set(requestId, { url: response.url, type, encoding: response.headers['content-encoding'] ?? response.headers['Content-Encoding'] ?? 'identity', bytes: 0 });
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const response = responses.get(requestId);
    if (response) response.bytes = encodedDataLength;
  });
  try {
    await page.goto(`${url}/project/${REF}/editor/${tableId}`);
    const firstRow = await page.waitForFunction(
      () => {
        /* global document -- this function runs in the page */
        const rows = document.querySelectorAll('[role="grid"] [role="row"]');
        return rows.length > 1 && rows[1].querySelector('[role="gridcell"]') ? performance.now() : false;
      },
      null,
      { polling: 'raf', timeout: 60_000 },
    );
    const firstRowMs = await firstRow.jsonValue();
    await page.waitForLoadState('networkidle');
    const all = [...responses.values()];
    const scripts = all.filter((r) => r.type === 'Script');
    const fromShellOrigin = scripts.filter((r) => r.url.startsWith(url));
    const sum = (list) => list.reduce((total, r) => total + r.bytes, 0);
    return {
      firstRowMs,
      jsRequests: scripts.length,
      jsKB: sum(scripts) / 1024,
      jsFromShellKB: sum(fromShellOrigin) / 1024,
      jsFromRemoteKB: sum(scripts) / 1024 - sum(fromShellOrigin) / 1024,
      allRequests: all.length,
      allKB: sum(all) / 1024,
      compressedScripts: scripts.filter((r) => r.encoding !== 'identity').length,
      // Which files they were, to see where the bytes go.
      scriptFiles: scripts.map((r) => ({ url: r.url.replace(/^https?:\/\/[^/]+/, ''), kb: round(r.bytes / 1024) })),
    };
  } finally {
    await context.close();
  }
}

/** RUNS cold visits after one that warms the servers up: the median time, the bytes of the last. */
async function measure(browser, target) {
  await coldVisit(browser, target);
  const visits = [];
  for (let i = 0; i < RUNS; i++) visits.push(await coldVisit(browser, target));
  const last = visits.at(-1);
  return {
    firstRowMs: round(median(visits.map((v) => v.firstRowMs))),
    jsRequests: last.jsRequests,
    jsKB: round(last.jsKB),
    jsFromShellKB: round(last.jsFromShellKB),
    jsFromRemoteKB: round(last.jsFromRemoteKB),
    allRequests: last.allRequests,
    allKB: round(last.allKB),
    compressedScripts: last.compressedScripts,
    scriptFiles: last.scriptFiles,
  };
}

export default async function coldLoad() {
  buildStack();
  buildSingleBundle();
  const stack = await startStack(PORT);
  let single;
  const { chromium } = require(path.join(root, 'node_modules', '@playwright/test'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    await stack.api('POST', `/pg-meta/${REF}/sql/run`, {
      query: `drop table if exists ${TABLE};
        create table ${TABLE} (id int8 generated by default as identity primary key, customer text not null, total numeric, placed_at timestamptz default now());
        insert into ${TABLE} (customer, total) select 'Customer ' || i, i * 2.5 from generate_series(1, 500) i;`,
    });
    const [{ rows }] = (await stack.api('POST', `/pg-meta/${REF}/sql/run`, { query: `select '${TABLE}'::regclass::oid::int8 as id` })).results;
    const tableId = Number(rows[0][0]);

    const federated = { url: stack.url, cookie: stack.cookie, tableId };
    const result = {
      federated: await measure(browser, federated),
      federatedUncompressed: await measure(browser, { ...federated, identity: true }),
    };
    single = await startSingleBundleGateway(stack);
    const bundled = { url: single.url, cookie: stack.cookie, tableId };
    Object.assign(result, {
      singleBundle: await measure(browser, bundled),
      singleBundleUncompressed: await measure(browser, { ...bundled, identity: true }),
    });
    const remoteEntryKB = result.federated.scriptFiles.find((file) => /\/remoteEntry[^/]*\.js/.test(file.url))?.kb ?? 0;
    result.federationRuntime = { shellKB: round(federationRuntimeKB(path.join(root, 'shell', 'dist', 'main.js'))), remoteEntryKB };
    result.ratio = {
      bytes: round(result.federated.jsKB / result.singleBundle.jsKB, 2),
      // The ratio the runtime alone makes: no federated build of these screens gets under it.
      runtimeFloor: round((result.singleBundle.jsKB + result.federationRuntime.shellKB + remoteEntryKB) / result.singleBundle.jsKB, 2),
      requests: round(result.federated.jsRequests / result.singleBundle.jsRequests),
      firstRow: round(result.federated.firstRowMs / result.singleBundle.firstRowMs),
    };
    console.table(
      Object.entries(result)
        .filter(([key]) => key !== 'ratio' && key !== 'federationRuntime')
        .map(([build, m]) => ({ build, js_requests: m.jsRequests, js_kb: m.jsKB, shell_origin_kb: m.jsFromShellKB, remote_origin_kb: m.jsFromRemoteKB, all_requests: m.allRequests, all_kb: m.allKB, first_row_ms: m.firstRowMs })),
    );
    console.log(
      `federated / single bundle (compressed): JavaScript bytes ${result.ratio.bytes}x (target ≤ 1.1x), requests ${result.ratio.requests}x, time to first row ${result.ratio.firstRow}x`,
    );
    const { shellKB } = result.federationRuntime;
    console.log(
      `the federation runtime alone: about ${shellKB} KB in the shell's main.js and ${remoteEntryKB} KB of remoteEntry.js (compressed), ${result.ratio.runtimeFloor}x of the single bundle with nothing else added`,
    );
    writeResult('cold-load', result);
  } finally {
    await browser.close();
    await single?.stop();
    await stack.stop();
  }
}
