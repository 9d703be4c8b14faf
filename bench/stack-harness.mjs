// Shared set-up of the storage benchmarks: the whole stack as `npm start` runs it (embedded Postgres,
// platform, storage, gateway ...) in a data folder of its own, signed in as the demo owner, so every
// request goes through the gateway as a user's or an app's would. Needs the build (`npx turbo run build`).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PASSWORD = 'bench-demo-password';
export const REF = 'default';

/** Builds what the stack runs (turbo's cache makes this quick when nothing changed). */
export function buildStack() {
  execFileSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], { cwd: root, stdio: 'inherit' });
}

/**
 * Starts the stack on `port` with a fresh data folder under `.data/` and signs in as the owner.
 * `extraEnv` adds to its environment (feature flags, say). `dataDir` is where the disk backend and Postgres keep their files (the disk the benchmark compares with).
 */
export async function startStack(port = 28600, extraEnv = {}) {
  const dataDir = path.join(root, '.data', `bench-${randomBytes(3).toString('hex')}`);
  const env = { ...process.env, PORT: String(port), DASH_DATA_DIR: dataDir, DASHBOARD_DEMO_PASSWORD: PASSWORD, DATABASE_URL: '', ...extraEnv };
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'dist', 'start.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Dashboard running at')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the stack exited (${code}) before it was up:\n${output}`)));
  });
  child.stdout.resume();
  const url = `http://127.0.0.1:${port}`;
  const signIn = await fetch(`${url}/api/platform/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@example.com', password: PASSWORD }),
  });
  if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');

  /** A dashboard API call as the signed-in owner; throws on a non-2xx answer. */
  const api = async (method, apiPath, body) => {
    const res = await fetch(`${url}/api${apiPath}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${apiPath} answered ${res.status}: ${await res.text()}`);
    return res.headers.get('content-type')?.includes('json') ? res.json() : res;
  };

  return {
    url,
    cookie,
    dataDir,
    api,
    pidOf: (name) => Number(readFileSync(path.join(dataDir, 'run', `${name}.pid`), 'utf8')),
    /** The `npm start` process (its stdout still flows: benches may listen to it). */
    launcher: child,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
