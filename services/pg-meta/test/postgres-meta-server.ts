import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '@dash/service-kit';

/*
 * `@supabase/postgres-meta`'s own server, run as a child process against a database: the differential
 * tests ask it and ours the same questions. Its package is ESM with top-level await, which Jest's
 * CommonJS runtime cannot load, and its server (not the library) is what decides query parsing and
 * status codes, so the real server is what we talk to, over HTTP.
 */

export interface PostgresMetaServer {
  /** Sends a request to postgres-meta; the body is parsed as JSON when the reply says it is JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- postgres-meta's replies, of every shape
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

const SERVER = require.resolve('@supabase/postgres-meta/dist/server/server.js');

/** The end of what the server wrote to stderr, for the error when it does not start. */
let stderrTail = '';

async function startOn(dbUrl: string, port: number): Promise<{ child: ChildProcess; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [SERVER], {
    // The admin app (metrics) listens on PG_META_PORT + 1; no Sentry DSN, so Sentry stays off.
    env: { PATH: process.env.PATH, PG_META_HOST: '127.0.0.1', PG_META_PORT: String(port), PG_META_DB_URL: dbUrl },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Read, so a chatty server never blocks on a full pipe; only the end is kept.
  child.stderr!.on('data', (chunk: Buffer) => (stderrTail = (stderrTail + chunk.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited };
}

async function untilHealthy(port: number, exited: Promise<number | null>): Promise<boolean> {
  let done = false;
  void exited.then(() => (done = true));
  // Up to 30 s: the server loads its dependencies first, slowly on a busy machine.
  for (let i = 0; i < 600 && !done; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** Starts postgres-meta on free ports, connected to `dbUrl` for every request. */
export async function startPostgresMeta(dbUrl: string): Promise<PostgresMetaServer> {
  // A port whose neighbour is taken makes the server exit: try a few.
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const { child, exited } = await startOn(dbUrl, port);
    if (!(await untilHealthy(port, exited))) {
      child.kill('SIGKILL');
      await exited;
      continue;
    }
    return {
      async request(method, path, body) {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        const json = (res.headers.get('content-type') ?? '').includes('application/json');
        return { status: res.status, body: json && text ? JSON.parse(text) : text };
      },
      async stop() {
        child.kill('SIGTERM');
        await exited;
      },
    };
  }
  throw new Error(`postgres-meta did not start: ${stderrTail}`);
}
