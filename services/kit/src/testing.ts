import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { dropDatabase, ensureDatabase, quoteIdent, withDatabase } from './db';
import { signForwardedClient, signIdentity } from './identity';
import pg from 'pg';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import { FORWARDED_HEADER, type OrgRole } from '@dash/contracts';
import type { ServiceApp } from './app';
import { notFound } from './errors';
import { bootstrapProjectDatabase, dropProjectDatabase, type ProjectConnections } from './project-bootstrap';
import { ProjectPools, type ConnectionResolver } from './project-pools';

/** The admin connection string of the test server (set by the jest global setup, or DATABASE_URL). */
export function testServerUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run tests through jest with the integration preset');
  return url;
}

/** A fresh database for one test file, dropped by `drop()`. */
export async function createTestDatabase(prefix = 't'): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const admin = testServerUrl();
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(admin, name);
  return { name, url: withDatabase(admin, name), drop: () => dropDatabase(admin, name) };
}

/**
 * A fresh, bootstrapped project database for one test file: `url` is the server's superuser on it (for
 * fixtures only a superuser can make), `connections` each project role's; `drop()` removes it and its roles.
 */
export async function createTestProjectDatabase(prefix = 't'): Promise<{ name: string; url: string; connections: ProjectConnections; drop: () => Promise<void> }> {
  const db = await createTestDatabase(prefix);
  const connections = await bootstrapProjectDatabase(db.url);
  return { ...db, connections, drop: () => dropProjectDatabase(testServerUrl(), db.name) };
}

export const TEST_SECRET = 'test-secret-for-signed-identities';

/** Headers that carry a signed identity, as the gateway would send them. */
/** The header the gateway adds to say a request came from `ip` (see `ForwardedClient`). */
export function forwardedFrom(ip: string, proto: 'http' | 'https' = 'http') {
  return { [FORWARDED_HEADER]: signForwardedClient(TEST_SECRET, { ip, proto }) };
}

export function userHeaders(projects: Record<string, OrgRole>, sub = 'user-1', email = 'user@example.com') {
  return { 'x-dash-identity': signIdentity(TEST_SECRET, { kind: 'user', sub, email, projects }) };
}

export function serviceHeaders(sub = 'gateway') {
  return { 'x-dash-identity': signIdentity(TEST_SECRET, { kind: 'service', sub }) };
}

/** A role's headers for project `ref` (default `default`), as the gateway sends them. */
export const asRole = (role: OrgRole, ref = 'default') => userHeaders({ [ref]: role });

/** Validates replies against contract schemas the way a client would (ajv with formats). */
export function contractValidator(): (schema: TSchema, data: unknown) => string | null {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return (schema, data) => {
    const validate = ajv.compile(schema);
    return validate(data) ? null : ajv.errorsText(validate.errors);
  };
}

export interface TestProject<O = never> {
  /** The project admin role's connection string (what pg-meta uses). */
  url: string;
  /** The server's superuser on the project database, for fixtures no project role may make. */
  serverUrl: string;
  connections: ProjectConnections;
  resolver: ConnectionResolver;
  pools: ProjectPools;
  app: ServiceApp;
  /** Runs SQL on the project database as the project admin role, the owner of its schemas (test fixtures). */
  sql: (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
  /** Runs SQL as the server's superuser: only for fixtures a project role may not make (foreign data wrappers). */
  superuserSql: (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
  /** Another app on the same database, built by `build` with options and its own pools (closed with the project). */
  extraApp: (options?: O, maxPerProject?: number) => Promise<ServiceApp>;
  close: () => Promise<void>;
}

/**
 * A fresh, bootstrapped project database reachable as ref `default` (any other ref is a 404), and the
 * service's app built on pools for it by `build`.
 */
export async function setupTestProject<O = never>(
  prefix: string,
  build: (pools: ProjectPools, options?: O) => ServiceApp,
): Promise<TestProject<O>> {
  const db = await createTestProjectDatabase(prefix);
  const resolver: ConnectionResolver = async (ref, role) => {
    if (ref === 'default') return db.connections[role];
    throw notFound('Project not found');
  };
  const pools = new ProjectPools(resolver);
  const app = build(pools);
  await app.ready();
  const admin = new pg.Client({ connectionString: db.connections.admin });
  // The fixture client shares the admin role with the app: a test that ends that role's backends must
  // not crash the test process through an unhandled error event.
  admin.on('error', () => {});
  await admin.connect();
  const extra: { app: ServiceApp; pools: ProjectPools }[] = [];
  return {
    url: db.connections.admin,
    serverUrl: db.url,
    connections: db.connections,
    resolver,
    pools,
    app,
    sql: (text, values) => admin.query(text, values),
    superuserSql: async (text, values) => {
      const superuser = new pg.Client({ connectionString: db.url });
      await superuser.connect();
      try {
        return await superuser.query(text, values);
      } finally {
        await superuser.end();
      }
    },
    extraApp: async (options, maxPerProject) => {
      const otherPools = new ProjectPools(resolver, maxPerProject);
      const other = build(otherPools, options);
      extra.push({ app: other, pools: otherPools });
      await other.ready();
      return other;
    },
    close: async () => {
      for (const other of extra) {
        await other.app.close();
        await other.pools.closeAll();
      }
      await app.close();
      await pools.closeAll();
      await admin.end();
      await db.drop();
    },
  };
}

export type DbRoleResult = { rowCount: number | null; rows: Record<string, unknown>[] } | { code: string };

/**
 * Runs `sql` on the database at `url` as a database role with a request's claims, the way the API's
 * requests run, in a transaction that is rolled back. A refusal by Postgres is returned as its SQLSTATE.
 */
export async function asDbRole(url: string, role: string, claims: Record<string, unknown>, sql: string): Promise<DbRoleResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ role, ...claims })]);
    await client.query(`set local role ${quoteIdent(role)}`);
    const { rowCount, rows } = await client.query(sql);
    return { rowCount, rows };
  } catch (error) {
    return { code: (error as pg.DatabaseError).code! };
  } finally {
    await client.query('rollback').catch(() => {});
    await client.end();
  }
}

/**
 * An HTTP request whose body is returned as it came over the wire: `fetch` would decode a compressed one,
 * and tests of content negotiation must see the encoded bytes and their length.
 */
export function rawRequest(url: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject)
      .end();
  });
}

/**
 * Waits until `check` holds (it may be async), checking every 20 ms, instead of sleeping a fixed time:
 * what a test waits for (a log event written after the reply, a worker's result) takes as long as the
 * machine needs. Throws naming `what` after `timeoutMs`.
 */
export async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`Timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type OwnPostgresAnswer = { url?: string; done?: string; error?: string };

/**
 * A Postgres server of a test's own, when the shared one will not do (restarting it, archiving its WAL),
 * in its own Node process (see jest/own-postgres.mjs for why), driven one command at a time. `quit`
 * stops it and removes its data; so does the test process ending.
 */
export class OwnPostgres {
  private readonly answers: ((message: OwnPostgresAnswer) => void)[] = [];

  private constructor(private readonly child: ChildProcessByStdio<Writable, Readable, null>) {
    readline.createInterface({ input: child.stdout }).on('line', (line) => this.answers.shift()?.(JSON.parse(line) as OwnPostgresAnswer));
  }

  /** Starts a server with these postgresql.conf settings; resolves with it and its superuser URL. */
  static async start(settings?: Record<string, string>): Promise<{ server: OwnPostgres; url: string }> {
    const child = spawn(process.execPath, [path.join(__dirname, '..', 'jest', 'own-postgres.mjs')], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, ...(settings ? { DASH_OWN_PG_SETTINGS: JSON.stringify(settings) } : {}) },
    });
    const server = new OwnPostgres(child);
    const first = await server.next();
    if (!first.url) throw new Error(`the test's own Postgres did not start: ${first.error}`);
    return { server, url: first.url };
  }

  private next() {
    return new Promise<OwnPostgresAnswer>((resolve) => this.answers.push(resolve));
  }

  /** `stop`: a fast stop keeping the data; `start`: on the same port again; `quit`: for good. */
  async command(command: 'stop' | 'start' | 'quit'): Promise<void> {
    const answer = this.next();
    this.child.stdin.write(`${command}\n`);
    const { error } = await answer;
    if (error) throw new Error(`${command} failed: ${error}`);
  }
}
export { ABORT_MODES, abortPlan, prng, sendAndAbort, type AbortMode, type AbortPlan, type AbortRequest } from './abort-client';

/** The default project's demo tables, for tests of what runs on such a project. */
export { seedDemoData } from './demo-data';
