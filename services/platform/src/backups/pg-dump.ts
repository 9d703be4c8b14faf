import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import pg from 'pg';
import { isStartupMessage, loggedInReply, untypedCode, GSSENC_REQUEST_CODE, SSL_REQUEST_CODE, WireSession } from './pg-wire';

/**
 * The one place that runs pg_dump. Backups are logical: plain SQL from the server's own pg_dump, made as
 * the project's admin role (never the cluster's superuser), restorable by running the SQL.
 *
 * Which pg_dump: a native binary when `DASH_PG_DUMP` names one, otherwise the WebAssembly build of
 * pg_dump that `@electric-sql/pglite-tools` ships. pg_dump dumps servers of its own major version and
 * older ones only, so a server newer than the tool is refused up front with what to install.
 *
 * The WebAssembly pg_dump talks to its database through a synchronous callback (`execProtocolRawSync`:
 * frontend bytes in, the server's reply out). It runs in a worker thread that blocks on an Atomics wait
 * while this thread sends its bytes over a real connection, already logged in as the admin role, and
 * collects the reply up to ReadyForQuery.
 */

export class PgDumpUnavailableError extends Error {}

export interface PgDumpTool {
  kind: 'native' | 'wasm';
  /** `17.5` */
  version: string;
  major: number;
  /** The native binary. */
  path?: string;
}

/** Options every backup is made with; see `dumpArguments`. */
export interface DumpScope {
  /** Schemas of the database the dumping role does not own (made by the platform's superuser). */
  foreignSchemas: string[];
  /** Extensions the dumping role does not own (installed by the platform's superuser). */
  foreignExtensions: string[];
  serverMajor: number;
}

const VERSION = /pg_dump \(PostgreSQL\) (\d+)\.(\d+)/;

function toolOf(kind: PgDumpTool['kind'], versionText: string, path?: string): PgDumpTool {
  const match = VERSION.exec(versionText);
  if (!match) throw new PgDumpUnavailableError(`Cannot tell which PostgreSQL version ${path ?? 'the bundled pg_dump'} is for`);
  return { kind, version: `${match[1]}.${match[2]}`, major: Number(match[1]), ...(path ? { path } : {}) };
}

/** The file of the WebAssembly pg_dump's loader; its `.wasm` sits beside it. */
function wasmModulePath(): string {
  return require.resolve('@electric-sql/pglite-tools/pg_dump');
}

let bundled: PgDumpTool | undefined;

/** The bundled pg_dump's version, read from its binary (the build embeds `pg_dump (PostgreSQL) 17.5`). */
function bundledTool(): PgDumpTool {
  if (!bundled) {
    const wasm = readFileSync(wasmModulePath().replace(/\.c?js$/, '.wasm'));
    bundled = toolOf('wasm', wasm.toString('latin1'));
  }
  return bundled;
}

function nativeTool(path: string): Promise<PgDumpTool> {
  return new Promise((resolve, reject) => {
    execFile(path, ['--version'], { timeout: 10_000 }, (error, stdout) => {
      if (error) reject(new PgDumpUnavailableError(`DASH_PG_DUMP is set to ${path}, which cannot be run: ${error.message}`));
      else {
        try {
          resolve(toolOf('native', stdout, path));
        } catch (problem) {
          reject(problem as Error);
        }
      }
    });
  });
}

/** The pg_dump this process uses. */
export async function pgDumpTool(env: NodeJS.ProcessEnv = process.env): Promise<PgDumpTool> {
  const native = env.DASH_PG_DUMP?.trim();
  return native ? nativeTool(native) : bundledTool();
}

/** Why `tool` cannot dump a server of `serverMajor`, or null when it can. */
export function pgDumpProblem(tool: PgDumpTool, serverMajor: number): string | null {
  if (tool.major >= serverMajor) return null;
  return (
    `The project database runs PostgreSQL ${serverMajor}, and the available pg_dump is version ${tool.version}, ` +
    `which cannot dump a newer server. Set DASH_PG_DUMP to a pg_dump ${serverMajor} binary.`
  );
}

/** A pg_dump name pattern that matches `name` only (quoted; `"` doubled). */
export const exactPattern = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * The arguments of every backup:
 * - no owners and no privileges: they name the project's own roles, which another project does not
 *   have; a restore runs as the new project's admin role, and its bootstrap grants the standard roles
 *   again;
 * - the schemas and extensions the platform installs as superuser are left out: every project gets
 *   them from its bootstrap, and its admin role could not recreate them;
 * - rows as INSERT statements (100 a statement), so the file restores as plain SQL with no COPY streams.
 */
export function dumpArguments(scope: DumpScope): string[] {
  return [
    '--no-owner',
    '--no-privileges',
    '--rows-per-insert=100',
    ...scope.foreignSchemas.map((name) => `--exclude-schema=${exactPattern(name)}`),
    ...scope.foreignExtensions.map((name) => `--exclude-extension=${exactPattern(name)}`),
  ];
}

/** What the dump covers, read as the dumping role. */
export async function dumpScope(connectionString: string): Promise<DumpScope> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ major: number; schemas: string[]; extensions: string[] }>(`
      select current_setting('server_version_num')::int / 10000 as major,
        array(select nspname::text from pg_namespace
              where nspname <> 'information_schema' and nspname !~ '^pg_' and not pg_has_role(nspowner, 'usage')
              order by 1) as schemas,
        array(select extname::text from pg_extension where not pg_has_role(extowner, 'usage') order by 1) as extensions`);
    const row = rows[0]!;
    return { serverMajor: row.major, foreignSchemas: row.schemas, foreignExtensions: row.extensions };
  } finally {
    await client.end().catch(() => {});
  }
}

/** Runs a native pg_dump; the password goes in the environment, not on the command line. */
function runNative(tool: PgDumpTool, connectionString: string, args: string[]): Promise<Buffer> {
  const url = new URL(connectionString);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return new Promise((resolve, reject) => {
    execFile(
      tool.path!,
      [...args, '--format=plain', `--dbname=${url.toString()}`],
      { encoding: 'buffer', maxBuffer: 4 * 1024 * 1024 * 1024, env: { PATH: process.env.PATH ?? '', PGPASSWORD: password, PGAPPNAME: 'dash-backup' } },
      (error, stdout, stderr) => {
        if (error) reject(new Error(stderr.toString('utf8').trim() || error.message));
        else resolve(stdout);
      },
    );
  });
}

/*
 * The worker: plain CommonJS evaluated as given (no build step), so it runs the same from sources under
 * Jest and from dist. Each call of `execProtocolRawSync` posts the bytes and blocks until this thread
 * has put the reply on the port and flipped the flag.
 */
const WORKER_SOURCE = `
const { workerData, receiveMessageOnPort } = require('node:worker_threads');
// The program name pg_dump's messages start with (it would be "[worker eval]").
process.argv[1] = 'pg_dump';
const { pgDump } = require(workerData.modulePath);
const flag = new Int32Array(workerData.flag);
const port = workerData.port;
const database = {
  // pgDump saves and restores the search_path of a PGlite session; this session closes afterwards.
  query: async () => ({ rows: [{ search_path: 'public' }] }),
  exec: async () => {},
  execProtocolRawSync(bytes) {
    Atomics.store(flag, 0, 0);
    port.postMessage({ request: bytes.slice() });
    Atomics.wait(flag, 0, 0);
    const reply = receiveMessageOnPort(port).message;
    if (reply.error) throw new Error(reply.error);
    return reply.bytes;
  },
};
pgDump({ pg: database, args: workerData.args }).then(
  async (file) => {
    const bytes = new Uint8Array(await file.arrayBuffer());
    port.postMessage({ done: bytes }, [bytes.buffer]);
  },
  (error) => port.postMessage({ failed: String((error && error.message) || error) }),
);
`;

/** Counts the frontend messages in a byte stream that the server answers with a ReadyForQuery. */
class FrontendStream {
  private pending: Buffer = Buffer.alloc(0);

  /** Takes written bytes; returns how many replies ending in ReadyForQuery they ask for, and whether they end the session. */
  take(bytes: Buffer): { replies: number; terminate: boolean } {
    this.pending = this.pending.length ? Buffer.concat([this.pending, bytes]) : bytes;
    let replies = 0;
    let terminate = false;
    while (this.pending.length >= 5) {
      const end = 1 + this.pending.readInt32BE(1);
      if (this.pending.length < end) break;
      const type = String.fromCharCode(this.pending[0]!);
      // Query, Sync and FunctionCall (pg_dump reads large objects with it) end in ReadyForQuery.
      if (type === 'Q' || type === 'S' || type === 'F') replies += 1;
      if (type === 'X') terminate = true;
      this.pending = this.pending.subarray(end);
    }
    return { replies, terminate };
  }
}

/**
 * Answers the WebAssembly pg_dump's writes: the requests before its startup message and the startup
 * itself are answered here (the session is already logged in, as the admin role, to the project's
 * database, whatever user and database pg_dump names); every other message goes to the server, and the
 * reply is complete when every Query, Sync or FunctionCall written has had its ReadyForQuery.
 */
class DumpBridge {
  private readonly stream = new FrontendStream();

  constructor(private readonly session: WireSession) {}

  async answer(bytes: Buffer): Promise<Buffer> {
    const code = untypedCode(bytes);
    if (code === SSL_REQUEST_CODE || code === GSSENC_REQUEST_CODE) return Buffer.from('N');
    if (isStartupMessage(bytes)) return loggedInReply(this.session.statusFrames, this.session.keyFrame);
    const { replies, terminate } = this.stream.take(bytes);
    if (terminate) return Buffer.alloc(0);
    this.session.write(bytes);
    const frames: Buffer[] = [];
    for (let left = replies; left > 0; ) {
      const message = await this.session.next();
      frames.push(message.frame);
      if (message.type === 'Z') left -= 1;
    }
    return Buffer.concat(frames);
  }
}

async function runWasm(connectionString: string, args: string[]): Promise<Buffer> {
  const session = await WireSession.open(connectionString, 'dash-backup');
  const bridge = new DumpBridge(session);
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { modulePath: wasmModulePath(), flag: flag.buffer, port: port2, args },
    transferList: [port2],
  });
  const release = (reply: { bytes: Uint8Array } | { error: string }) => {
    port1.postMessage(reply);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  };
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      type DumpMessage = { request?: Uint8Array; done?: Uint8Array; failed?: string };
      const settle = (message: DumpMessage | undefined) => {
        if (message?.done) resolve(Buffer.from(message.done.buffer, message.done.byteOffset, message.done.byteLength));
        else if (message?.failed !== undefined) reject(new Error(message.failed));
        return message?.done !== undefined || message?.failed !== undefined;
      };
      worker.once('error', reject);
      // The worker posts its result and then exits; the exit can be seen before the message (a busy
      // machine), so a message still queued on the port is read first.
      worker.once('exit', (code) => {
        if (!settle(receiveMessageOnPort(port1)?.message as DumpMessage | undefined)) reject(new Error(`pg_dump stopped unexpectedly (exit code ${code})`));
      });
      // Requests are answered one at a time: the worker is blocked until its reply arrives.
      port1.on('message', (message: DumpMessage) => {
        if (settle(message)) return;
        if (message.request) {
          bridge.answer(Buffer.from(message.request)).then(
            (bytes) => release({ bytes: new Uint8Array(bytes) }),
            (error: Error) => release({ error: error.message }),
          );
        }
      });
    });
  } finally {
    port1.close();
    await worker.terminate();
    session.close();
  }
}

/**
 * pg_dump's error, detail and hint messages, without the wrapper's prefix, the program name and the
 * source positions the WebAssembly build adds (its stderr also comes without line breaks).
 */
export function dumpFailure(error: unknown): Error {
  const text = error instanceof Error ? error.message : String(error);
  const stderr = /Error message:\s*([\s\S]*)$/.exec(text)?.[1] ?? text;
  const messages = [...stderr.matchAll(/pg_dump: (?:error|detail|hint): (?:# \d+:[\w.]+: )?([\s\S]*?)(?=pg_dump: (?:error|detail|hint|warning): |$)/g)]
    .map((match) => match[1]!.trim())
    .filter(Boolean);
  return new Error(messages.length ? messages.join(' ') : stderr.trim() || 'pg_dump failed');
}

/**
 * Dumps the database of `connectionString` (the project's admin role) to plain SQL. Throws
 * PgDumpUnavailableError when no pg_dump can dump this server.
 */
export async function dumpDatabase(connectionString: string): Promise<Buffer> {
  const tool = await pgDumpTool();
  const scope = await dumpScope(connectionString);
  const problem = pgDumpProblem(tool, scope.serverMajor);
  if (problem) throw new PgDumpUnavailableError(problem);
  const args = dumpArguments(scope);
  try {
    return tool.kind === 'native' ? await runNative(tool, connectionString, args) : await runWasm(connectionString, args);
  } catch (error) {
    throw dumpFailure(error);
  }
}
