// Shared set-up of the pg-meta benchmarks (rows-page, csv-export, csv-import): a Postgres server
// (DATABASE_URL, else embedded Postgres 15), a bootstrapped project database, and the pg-meta service
// built from source and run in a child process on a real port, so its memory can be read from /proc.
// `node bench/pg-meta-harness.mjs serve <databaseUrl> <port> <secret>` is that child.
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const kit = () => require(path.join(root, 'services/kit/dist/index.js'));
export const PROJECT_REF = 'bench';

/**
 * An HTTP client for a service as the gateway calls services: undici's request API on a keep-alive pool
 * (what @fastify/reply-from uses; undici comes with the gateway). Not fetch, whose own work in the
 * benchmark's process cost 1-2 ms a call, which is the client's, not the service's.
 * `request(method, path, headers, body?)` answers `{ status, text }`; `close()` ends the pool.
 */
export function serviceClient(address) {
  const { Pool } = require(require.resolve('undici', { paths: [path.join(root, 'services/gateway')] }));
  const pool = new Pool(address);
  return {
    async request(method, urlPath, headers, body) {
      const res = await pool.request({ method, path: urlPath, headers, body });
      return { status: res.statusCode, text: await res.body.text() };
    },
    close: () => pool.close(),
  };
}

/** A Postgres server for the run: DATABASE_URL's, else a fresh embedded one (stopped by `stop`). */
export async function startPostgres() {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => {} };
  const dir = path.join(os.tmpdir(), `dash-bench-pg-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const server = await kit().startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), password: 'postgres', persistent: false });
  return {
    url: server.url,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new project database with the standard roles and schemas; `drop` removes it. */
export async function createProjectDatabase(adminUrl, prefix) {
  const { ensureDatabase, dropDatabase, withDatabase, bootstrapProjectDatabase } = kit();
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(adminUrl, name);
  const url = withDatabase(adminUrl, name);
  await bootstrapProjectDatabase(url);
  return { url, drop: () => dropDatabase(adminUrl, name) };
}

/** Compiles pg-meta (its dist/ is what runs in production). */
export function buildPgMeta() {
  try {
    execFileSync('npx', ['tsc', '-p', 'services/pg-meta/tsconfig.json'], { cwd: root, stdio: 'pipe' });
  } catch (error) {
    // Type errors still emit JavaScript; a missing dist is the real failure.
    console.warn(`tsc reported problems building pg-meta:\n${String(error.stdout ?? error).slice(0, 2000)}`);
  }
}

/** Starts pg-meta in a child process; resolves once /health answers. */
export async function startService(databaseUrl) {
  const { freePort, signIdentity } = kit();
  const port = await freePort();
  const secret = randomBytes(16).toString('hex');
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'serve', databaseUrl, String(port), secret], { stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      if (i > 200 || child.exitCode !== null) throw new Error('pg-meta did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const identity = () => ({ 'x-dash-identity': signIdentity(secret, { kind: 'user', sub: 'bench', email: 'bench@example.com', projects: { [PROJECT_REF]: 'owner' } }) });
  return {
    url,
    pid: child.pid,
    identity,
    stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM')))),
  };
}

/** The process's resident set size now and at its peak (VmRSS, VmHWM), in MB. */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakRssMb: kb('VmHWM') / 1024 };
}

/** Resets the process's peak RSS (VmHWM) to its current RSS, so a later peak belongs to what ran since. */
export function resetPeakRss(pid) {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Times `fn` once, in milliseconds. */
export async function timed(fn) {
  const start = process.hrtime.bigint();
  const result = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, result };
}

/** Writes bench/results/<name>.json. */
export function writeResult(name, data) {
  const dir = path.join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, `${JSON.stringify({ name, at: new Date().toISOString(), ...data }, null, 2)}\n`);
  return file;
}

/** Runs psql with the connection string, returning stdout as a Buffer. */
export function psql(databaseUrl, args, options = {}) {
  return execFileSync(process.env.PSQL ?? '/usr/bin/psql', [databaseUrl, '-X', '-q', '-v', 'ON_ERROR_STOP=1', ...args], { maxBuffer: 1024 * 1024 * 1024, ...options });
}

async function serve(databaseUrl, port, secret) {
  const { buildApp } = require(path.join(root, 'services/pg-meta/dist/app.js'));
  const { ProjectPools, notFound } = kit();
  const pools = new ProjectPools(async (ref) => {
    if (ref === PROJECT_REF) return databaseUrl;
    throw notFound('Project not found');
  });
  const app = buildApp({ secret, pools });
  await app.listen({ port: Number(port), host: '127.0.0.1' });
  process.on('SIGTERM', () => app.close().then(() => pools.closeAll()).then(() => process.exit(0)));
}

if (process.argv[2] === 'serve' && import.meta.url === pathToFileURL(process.argv[1]).href) {
  serve(process.argv[3], process.argv[4], process.argv[5]).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

/** Reads a byte stream to its end, hashing it without keeping it. */
export async function digest(stream) {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { bytes, sha256: hash.digest('hex') };
}
