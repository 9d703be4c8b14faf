import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureDatabase, ensureServiceRoles, giveToServerUser, precompressFolder, startEmbeddedPostgres, walArchiveSettings, withDatabase, type EmbeddedServer } from '@dash/service-kit';
import { dataDir, ports, readSavedPort, REMOTES, ROOT } from './layout';
import { loadSecrets } from './secrets';
import { publishNewBuilds, remotesDir } from './remotes';
import { Supervisor } from './supervisor';

/**
 * The embedded server writes its log as JSON lines (jsonlog) into `log/` of its data directory, a file
 * a day: errors, statements slower than a second, and connections. The logs service follows those files.
 */
const POSTGRES_LOG_SETTINGS = {
  logging_collector: 'on',
  log_destination: 'jsonlog',
  log_directory: 'log',
  log_filename: 'postgresql-%Y-%m-%d_%H%M%S.log',
  log_rotation_age: '1d',
  log_rotation_size: '100MB',
  log_file_mode: '0640',
  log_timezone: 'UTC',
  log_min_duration_statement: '1000',
  log_connections: 'on',
};

let supervisor: Supervisor | null = null;
let database: EmbeddedServer | null = null;
let stopping = false;

function runDir() {
  return path.join(dataDir(), 'run');
}

function logFile(name: string) {
  return path.join(dataDir(), 'logs', `${name}.log`);
}

/**
 * Stops the processes a killed earlier start left behind (SIGKILL does not reach its children, which
 * keep their ports). Only pids whose command line is one of ours are signalled.
 */
async function stopLeftovers(): Promise<void> {
  if (!existsSync(runDir())) return;
  let stopped = 0;
  for (const file of readdirSync(runDir()).filter((f) => f.endsWith('.pid'))) {
    const pid = Number(readFileSync(path.join(runDir(), file), 'utf8'));
    let commandLine: string;
    try {
      commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue; // not running
    }
    if (!commandLine.includes(ROOT) && !commandLine.includes('dist/main.js') && !commandLine.includes('static-server.js')) continue;
    try {
      process.kill(pid, 'SIGTERM');
      stopped++;
    } catch {
      // already gone
    }
  }
  if (stopped > 0) {
    console.log(`Stopped ${stopped} process(es) left running by an earlier start.`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function waitForHealth(name: string, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${name} did not answer ${url} within ${timeoutMs / 1000} s. Its log: ${logFile(name)}`);
}

/** Ctrl+C, or a start that failed: the one way the whole stack stops, Postgres last. */
async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await supervisor?.stopAll();
    await database?.stop().catch(() => {});
  }
  process.exit(code);
}

/** WAL archiving into `<data>/pitr/wal` for point-in-time recovery; none (with why) when the path cannot be used. */
function archiveSettings(): Record<string, string> {
  const dir = path.join(dataDir(), 'pitr');
  try {
    // The archive_command gzips each segment: without gzip every segment would fail to archive and stay in pg_wal.
    execFileSync('gzip', ['--version'], { stdio: 'ignore' });
    const settings = walArchiveSettings(path.join(dir, 'wal'));
    mkdirSync(path.join(dir, 'wal'), { recursive: true });
    giveToServerUser(path.join(dir, 'wal'));
    return settings;
  } catch (error) {
    console.log(`Point in time recovery is off: ${(error as Error).message}`);
    return {};
  }
}

async function main() {
  const secrets = loadSecrets();
  const demoPassword = process.env.DASHBOARD_DEMO_PASSWORD || secrets.demoPassword;
  const p = ports();
  await stopLeftovers();
  rmSync(runDir(), { recursive: true, force: true });
  const processes = new Supervisor({ logDir: path.dirname(logFile('any')), runDir: runDir(), cwd: ROOT });
  supervisor = processes;

  let adminUrl: string;
  let platformUrl: string;
  // The server's own log, which the logs service reads as postgres_logs; with DATABASE_URL, from
  // DASH_POSTGRES_LOG_DIR when that server is set up the same way (see POSTGRES_LOG_SETTINGS).
  let postgresLogDir = process.env.DASH_POSTGRES_LOG_DIR ?? '';
  // Point-in-time recovery's archive (the platform's DASH_PITR_DIR): the embedded server's WAL and base backups.
  let pitrDir = '';
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
    platformUrl = process.env.DATABASE_URL;
    console.log(`Database: ${new URL(adminUrl).host} (DATABASE_URL)`);
  } else {
    const portFile = path.join(dataDir(), 'postgres.port');
    const savedPort = readSavedPort(portFile);
    try {
      database = await startEmbeddedPostgres({
        dataDir: path.join(dataDir(), 'postgres'),
        password: secrets.postgresPassword,
        persistent: true,
        port: savedPort,
        settings: { ...POSTGRES_LOG_SETTINGS, ...archiveSettings() },
      });
      postgresLogDir = path.join(dataDir(), 'postgres', POSTGRES_LOG_SETTINGS.log_directory);
    if (existsSync(path.join(dataDir(), 'pitr', 'wal'))) pitrDir = path.join(dataDir(), 'pitr');
    } catch (error) {
      if (savedPort) throw new Error(`The dashboard's Postgres could not start on port ${savedPort}, where its projects expect it. Is another process using that port? (${(error as Error).message})`, { cause: error });
      throw error;
    }
    writeFileSync(portFile, String(database.port));
    watchPostgres(database);
    adminUrl = database.url;
    await ensureDatabase(adminUrl, 'dash_platform');
    platformUrl = withDatabase(adminUrl, 'dash_platform');
    console.log(`Database: embedded Postgres ${database.version} on 127.0.0.1:${database.port} (data in ${path.join(dataDir(), 'postgres')})`);
  }

  const common = { DASH_INTERNAL_SECRET: secrets.internalSecret, NODE_ENV: 'production' };
  const service = (name: 'platform' | 'pg-meta' | 'storage' | 'logs' | 'rest' | 'graphql' | 'mail' | 'auth' | 'gateway', env: Record<string, string>) =>
    processes.start(name, path.join(ROOT, 'services', name, 'dist', 'main.js'), [], { ...common, ...env });
  const serviceUrl = (name: 'platform' | 'pg-meta' | 'storage' | 'logs' | 'rest' | 'graphql' | 'mail' | 'auth') => `http://127.0.0.1:${p[name]}`;

  // The platform and logs services log in as roles of their own; only the platform's provisioning keeps
  // the superuser (adminUrl). A DATABASE_URL that is no superuser's is used as it is (said why).
  const serviceRoles = await ensureServiceRoles(platformUrl, secrets.internalSecret);
  if (serviceRoles.fallback) console.log(`Database roles: ${serviceRoles.fallback}`);
  service('platform', {
    PORT: String(p.platform),
    DASH_PLATFORM_DATABASE_URL: serviceRoles.connections.platform,
    DASH_POSTGRES_ADMIN_URL: adminUrl,
    DASH_ENCRYPTION_KEY: secrets.encryptionKey,
    DASHBOARD_DEMO_PASSWORD: demoPassword,
    // Organization usage reads egress from the logs service (started after the platform; asked on demand).
    DASH_LOGS_URL: serviceUrl('logs'),
    ...(pitrDir ? { DASH_PITR_DIR: pitrDir } : {}),
  });
  await waitForHealth('platform', `${serviceUrl('platform')}/health`);
  service('pg-meta', { PORT: String(p['pg-meta']), DASH_PLATFORM_URL: serviceUrl('platform') });
  service('storage', {
    PORT: String(p.storage),
    DASH_PLATFORM_URL: serviceUrl('platform'),
    DASH_STORAGE_DIR: path.join(dataDir(), 'storage'),
    DASH_LOGS_URL: serviceUrl('logs'),
  });
  service('logs', {
    PORT: String(p.logs),
    DASH_PLATFORM_DATABASE_URL: serviceRoles.connections.logs,
    DASH_LOGS_EXPLORER_DATABASE_URL: serviceRoles.connections.logsExplorer,
    DASH_PLATFORM_URL: serviceUrl('platform'),
    ...(postgresLogDir ? { DASH_POSTGRES_LOG_DIR: postgresLogDir } : {}),
  });
  // The data API logs in to project databases as their `api` role (PostgREST's authenticator), never as a superuser.
  service('rest', {
    PORT: String(p.rest),
    DASH_PLATFORM_URL: serviceUrl('platform'),
    DASH_LOGS_URL: serviceUrl('logs'),
  });
  service('graphql', {
    PORT: String(p.graphql),
    DASH_PLATFORM_URL: serviceUrl('platform'),
    DASH_LOGS_URL: serviceUrl('logs'),
  });
  // The mail catcher: auth mail of projects without custom SMTP, read on Authentication → Emails.
  service('mail', {
    PORT: String(p.mail),
    DASH_MAIL_SMTP_PORT: String(p.mailSmtp),
    DASH_PLATFORM_DATABASE_URL: serviceRoles.connections.mail,
  });
  // The project auth API (GoTrue's dialect) logs in as each project's `auth` role; its mail goes to the catcher
  // unless a project set its own SMTP server, and its links point at the gateway's public origin.
  service('auth', {
    PORT: String(p.auth),
    DASH_PLATFORM_URL: serviceUrl('platform'),
    DASH_LOGS_URL: serviceUrl('logs'),
    DASH_MAIL_SMTP_PORT: String(p.mailSmtp),
    DASH_PUBLIC_URL: process.env.DASH_PUBLIC_ORIGIN?.split(',')[0]?.trim() || `http://127.0.0.1:${p.gateway}`,
  });
  await Promise.all((['pg-meta', 'storage', 'logs', 'rest', 'graphql', 'mail', 'auth'] as const).map((name) => waitForHealth(name, `${serviceUrl(name)}/health`)));

  for (const remote of REMOTES) {
    const root = path.join(remotesDir(), remote.name);
    mkdirSync(root, { recursive: true });
    processes.start(`remote-${remote.name}`, path.join(ROOT, 'scripts', 'dist', 'static-server.js'), [root, String(p.remote(remote.offset))], {});
  }
  await publishNewBuilds();

  // The shell's build is compressed here, once per build (unchanged files keep their copies), as each
  // remote version is when it is published; the gateway sends the copies and ignores stale ones.
  const shellDir = path.join(ROOT, 'shell', 'dist');
  if (existsSync(shellDir)) precompressFolder(shellDir);
  service('gateway', {
    PORT: String(p.gateway),
    DASH_PLATFORM_URL: serviceUrl('platform'),
    DASH_PG_META_URL: serviceUrl('pg-meta'),
    DASH_STORAGE_URL: serviceUrl('storage'),
    DASH_LOGS_URL: serviceUrl('logs'),
    DASH_REST_URL: serviceUrl('rest'),
    DASH_GRAPHQL_URL: serviceUrl('graphql'),
    DASH_MAIL_URL: serviceUrl('mail'),
    DASH_AUTH_URL: serviceUrl('auth'),
    DASH_SHELL_DIR: shellDir,
  });
  await waitForHealth('gateway', `http://127.0.0.1:${p.gateway}/health`);

  console.log(`
Dashboard running at http://127.0.0.1:${p.gateway}

Demo sign-ins (password ${process.env.DASHBOARD_DEMO_PASSWORD ? 'from DASHBOARD_DEMO_PASSWORD' : 'generated, kept in .data/secrets.json'}):
  owner@example.com   ${demoPassword}   (Owner)
  viewer@example.com  ${demoPassword}   (Read-only)

Logs of each process: ${path.join(dataDir(), 'logs')}
Press Ctrl+C to stop.`);
}

let postgresRestarting = false;

/** Starts the embedded Postgres again (after it died, or after a test's fast stop); never twice at once. */
/** `started`: when the server went down, as far as we know (the time printed counts from there). */
async function restartPostgres(server: EmbeddedServer, why: string, started = Date.now()): Promise<void> {
  if (postgresRestarting || stopping) return;
  postgresRestarting = true;
  let backoffMs = 500;
  try {
    for (;;) {
      try {
        await server.startAgain();
        console.log(`Postgres restarted in ${Date.now() - started} ms (${why})`);
        return;
      } catch (error) {
        if (stopping) return;
        console.error(`Postgres did not start (${(error as Error).message}); trying again in ${backoffMs / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, backoffMs));
        backoffMs = Math.min(backoffMs * 2, 30_000);
      }
    }
  } finally {
    postgresRestarting = false;
  }
}

/**
 * The embedded Postgres is a part like the others: checked every second, started again when it died.
 * The services keep running meanwhile and answer 503 until it is back (their pools reconnect).
 */
function watchPostgres(server: EmbeddedServer): void {
  setInterval(() => {
    if (!postgresRestarting && !stopping && !server.alive()) {
      console.error('Postgres is not running: starting it again');
      void restartPostgres(server, 'it had stopped');
    }
  }, 1000).unref();
}

/**
 * Restart-under-load testing (bench/postgres-restart.bench.mjs, the browser tests' recovery spec): with
 * DASH_ALLOW_POSTGRES_RESTART=1, SIGUSR2 restarts the embedded Postgres (fast stop, then start on the
 * same port) while the services keep running, and prints `Postgres restarted` once it accepts
 * connections. Off unless that variable is set: a stray signal must not restart a production database.
 */
function allowPostgresRestart(): void {
  if (process.env.DASH_ALLOW_POSTGRES_RESTART !== '1') return;
  process.on('SIGUSR2', () => {
    const server = database;
    if (!server || postgresRestarting || stopping) return;
    postgresRestarting = true;
    const started = Date.now();
    console.log('Postgres stopping (SIGUSR2)');
    void server
      .stopFast()
      .then(() => console.log(`Postgres stopped after ${Date.now() - started} ms`))
      .finally(() => {
        postgresRestarting = false;
        void restartPostgres(server, 'SIGUSR2', started);
      });
  });
}

allowPostgresRestart();
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
main().catch(async (error: Error) => {
  console.error(`\nStart failed: ${error.message}`);
  await shutdown(1);
});
