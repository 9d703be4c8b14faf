import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { PITR_RETENTION_DAYS, PitrMessages } from '@dash/contracts';
import { freePort, inTransaction, standaloneClient, startServerOnDirectory, walRestoreCommand } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import type { Database } from '../db/schema';

/*
 * Point-in-time recovery on the dashboard's own server (see the contract's pitrRoutes). The archive, a
 * folder the platform is given (`DASH_PITR_DIR`), holds:
 * - `wal/`: every finished WAL segment, gzipped by the server's archive_command (walArchiveSettings);
 * - `base/<time>/`: base backups, each a copy of the data directory made between pg_backup_start and
 *   pg_backup_stop, with its `backup.json` written last (a folder without one is an interrupted copy);
 * - `scratch/`: the copies a restore starts a server on, removed when it ends.
 * Base backups and WAL switches run on the server's superuser URL, as the provisioner's lifecycle work
 * does; the recovered database is dumped as the project's own admin role.
 */

const WAL = 'wal';
const BASE = 'base';
const SCRATCH = 'scratch';
const META = 'backup.json';
const DAY_MS = 24 * 60 * 60 * 1000;
/** A base backup a day: recovery replays at most a day of WAL on top of it. */
export const BASE_BACKUP_INTERVAL_MS = DAY_MS;
/** How long a restore waits for the server to archive the segment it just switched, and for the recovery. */
const ARCHIVE_WAIT_MS = 60_000;
const RECOVERY_WAIT_MS = 10 * 60_000;

export interface BaseBackup {
  /** The folder's name under `base/`. */
  name: string;
  startedAt: Date;
  /** When pg_backup_stop returned (the server's clock): a recovery can stop at any moment after it. */
  completedAt: Date;
  /** The first WAL segment the backup needs (`000000010000000000000003`). */
  startSegment: string;
  sizeBytes: number;
}

interface BaseBackupFile {
  started_at: string;
  completed_at: string;
  start_segment: string;
  size_bytes: number;
}

/**
 * Data-directory entries a base backup leaves out, as the server's own pg_basebackup does: the WAL
 * (recovery reads it from the archive), files of the running server, and folders emptied at every
 * start. Their folders are kept, empty (the server expects them). `log` is the dashboard's server log.
 */
const SKIPPED_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'startup.log', 'backup_label.old', 'tablespace_map.old']);
const EMPTIED_FOLDERS = new Set(['pg_wal', 'pg_replslot', 'pg_stat_tmp', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_subtrans', 'log']);

/** Whether a data directory's entry (`relative`, with `/`) goes into a base backup, and whether with its contents. */
export function copyRuleOf(relative: string, isDirectory: boolean): 'copy' | 'empty-folder' | 'skip' {
  const parts = relative.split('/');
  const name = parts[parts.length - 1]!;
  if (name.startsWith('pgsql_tmp')) return 'skip';
  if (parts.length === 1) {
    if (!isDirectory && SKIPPED_FILES.has(name)) return 'skip';
    if (isDirectory && EMPTIED_FOLDERS.has(name)) return 'empty-folder';
  }
  return 'copy';
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Copies a live data directory by `copyRuleOf`; a file the server removes meanwhile is simply not copied. Returns the bytes copied. */
async function copyDataDirectory(from: string, to: string, relative = ''): Promise<number> {
  await mkdir(to, { recursive: true });
  let bytes = 0;
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const rel = relative ? `${relative}/${entry.name}` : entry.name;
    const rule = copyRuleOf(rel, entry.isDirectory());
    if (rule === 'skip') continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    try {
      if (rule === 'empty-folder') await mkdir(target, { recursive: true });
      else if (entry.isDirectory()) bytes += await copyDataDirectory(source, target, rel);
      else if (entry.isFile()) {
        await copyFile(source, target);
        bytes += (await stat(target)).size;
      }
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
  return bytes;
}

/** `2026-11-28T09:30:00.123Z` → `20261128T093000123Z`, a folder name that sorts by time. */
const folderNameOf = (at: Date) => at.toISOString().replace(/[-:.]/g, '');

/** The base backups in the archive, oldest first; interrupted copies are not listed. */
export async function listBaseBackups(pitrDir: string): Promise<BaseBackup[]> {
  const base = path.join(pitrDir, BASE);
  if (!existsSync(base)) return [];
  const backups: BaseBackup[] = [];
  for (const name of (await readdir(base)).sort()) {
    let meta: BaseBackupFile;
    try {
      meta = JSON.parse(await readFile(path.join(base, name, META), 'utf8')) as BaseBackupFile;
    } catch (error) {
      if (isMissing(error)) continue;
      throw error;
    }
    backups.push({
      name,
      startedAt: new Date(meta.started_at),
      completedAt: new Date(meta.completed_at),
      startSegment: meta.start_segment,
      sizeBytes: meta.size_bytes,
    });
  }
  return backups;
}

/**
 * Takes a base backup of the server: pg_backup_start (with a fast checkpoint), a copy of its data
 * directory, pg_backup_stop (which waits until the WAL the copy needs is archived), and its backup label
 * written into the copy. On any failure the partial copy goes and the backup session ends with the
 * connection.
 */
export async function takeBaseBackup(adminUrl: string, pitrDir: string): Promise<BaseBackup> {
  const client = standaloneClient(adminUrl);
  await client.connect();
  const partial = path.join(pitrDir, BASE, `.partial-${randomBytes(4).toString('hex')}`);
  try {
    const { rows } = await client.query<{ data_directory: string; started_at: Date; start_segment: string }>(
      `select current_setting('data_directory') as data_directory, clock_timestamp() as started_at,
         pg_walfile_name(pg_backup_start('dashboard point in time recovery', true)) as start_segment`,
    );
    const { data_directory: dataDirectory, started_at: startedAt, start_segment: startSegment } = rows[0]!;
    const sizeBytes = await copyDataDirectory(dataDirectory, path.join(partial, 'data'));
    // Waits for the archiving of the backup's last segment; bounded, so a broken archive_command fails the backup.
    await client.query(`set statement_timeout = '5min'`);
    const stopped = await client.query<{ labelfile: string; spcmapfile: string | null; completed_at: Date }>(
      `select labelfile, spcmapfile, clock_timestamp() as completed_at from pg_backup_stop(true)`,
    );
    const { labelfile, spcmapfile, completed_at: completedAt } = stopped.rows[0]!;
    await writeFile(path.join(partial, 'data', 'backup_label'), labelfile);
    if (spcmapfile) await writeFile(path.join(partial, 'data', 'tablespace_map'), spcmapfile);
    const meta: BaseBackupFile = {
      started_at: startedAt.toISOString(),
      completed_at: completedAt.toISOString(),
      start_segment: startSegment,
      size_bytes: sizeBytes,
    };
    await writeFile(path.join(partial, META), JSON.stringify(meta, null, 2));
    const name = folderNameOf(completedAt);
    await rename(partial, path.join(pitrDir, BASE, name));
    return { name, startedAt, completedAt, startSegment, sizeBytes };
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The window a restore can reach: from the oldest base backup (or the retention's start) to now. */
export function recoveryWindow(backups: readonly BaseBackup[], retentionDays: number, now: Date): { earliest: Date; latest: Date } | null {
  const oldest = backups[0];
  if (!oldest || oldest.completedAt > now) return null;
  const retentionStart = now.getTime() - retentionDays * DAY_MS;
  // Whole seconds after the backup's end: the window is chosen to the second.
  const earliest = new Date(Math.max(Math.ceil(oldest.completedAt.getTime() / 1000) * 1000, retentionStart));
  return { earliest, latest: now };
}

/** The newest base backup that ended before `target`: recovery replays the least WAL from it. */
export function baseBackupFor(backups: readonly BaseBackup[], target: Date): BaseBackup | undefined {
  return backups.filter((b) => b.completedAt < target).at(-1);
}

/** The segment number of a WAL file name (its last 16 hex digits), comparable across timelines. */
const segmentNumber = (fileName: string) => BigInt(`0x${fileName.slice(8, 24)}`);
const WAL_SEGMENT = /^[0-9A-F]{24}(\.[0-9A-F]{8}\.backup)?\.gz$/;

/**
 * What pruning removes: with no project keeping a window (`retentionDays` null), every base backup and
 * segment; otherwise the base backups no longer needed to reach back `retentionDays` (the newest one that
 * ended before the window's start stays, it is the window's start), then the segments older than the
 * oldest base backup kept. A new base backup is taken first when none is recent (see PitrArchive).
 */
export function prunePlan(
  backups: readonly BaseBackup[],
  walFiles: readonly string[],
  retentionDays: number | null,
  now: Date,
): { backups: string[]; walFiles: string[] } {
  if (retentionDays === null) return { backups: backups.map((b) => b.name), walFiles: walFiles.filter((f) => WAL_SEGMENT.test(f)) };
  const windowStart = now.getTime() - retentionDays * DAY_MS;
  let firstKept = 0;
  backups.forEach((backup, i) => {
    if (backup.completedAt.getTime() <= windowStart) firstKept = i;
  });
  const kept = backups[firstKept];
  if (!kept) return { backups: [], walFiles: [] };
  const oldestNeeded = segmentNumber(kept.startSegment);
  return {
    backups: backups.slice(0, firstKept).map((b) => b.name),
    walFiles: walFiles.filter((f) => WAL_SEGMENT.test(f) && segmentNumber(f) < oldestNeeded),
  };
}

/** Removes what `prunePlan` names; returns it. */
export async function pruneArchive(pitrDir: string, retentionDays: number | null, now: Date): Promise<{ backups: string[]; walFiles: string[] }> {
  const walDir = path.join(pitrDir, WAL);
  const walFiles = existsSync(walDir) ? await readdir(walDir) : [];
  const plan = prunePlan(await listBaseBackups(pitrDir), walFiles, retentionDays, now);
  for (const name of plan.backups) await rm(path.join(pitrDir, BASE, name), { recursive: true, force: true });
  for (const file of plan.walFiles) await rm(path.join(walDir, file), { force: true });
  return plan;
}

/** Copies left by a base backup or a restore that a stop cut short. */
export async function removeLeftovers(pitrDir: string): Promise<void> {
  await rm(path.join(pitrDir, SCRATCH), { recursive: true, force: true });
  const base = path.join(pitrDir, BASE);
  if (!existsSync(base)) return;
  for (const name of await readdir(base)) {
    if (name.startsWith('.partial-')) await rm(path.join(base, name), { recursive: true, force: true });
  }
}

/** The settings a scratch copy starts with: recovery to `target`, then promotion; TCP on 127.0.0.1 only, nothing archived or logged to files. */
export function recoverySettings(walDir: string, target: Date): Record<string, string> {
  return {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    archive_mode: 'off',
    logging_collector: 'off',
    restore_command: walRestoreCommand(walDir),
    // The setting's own check refuses ISO 8601's `T` and `Z`: `2026-11-28 09:30:05.000+00`.
    recovery_target_time: target.toISOString().replace('T', ' ').replace('Z', '+00'),
    recovery_target_action: 'promote',
  };
}

const settingsText = (settings: Record<string, string>) =>
  Object.entries(settings)
    .map(([name, value]) => `${name} = '${value.replace(/'/g, "''")}'`)
    .join('\n');

/**
 * Makes sure the archive holds the WAL up to now: a transaction with an id (so a commit record dated now
 * follows any target in the past, where recovery can stop), then a segment switch, then a wait until the
 * switched segment is in the archive.
 */
async function archiveUpToNow(adminUrl: string, walDir: string): Promise<void> {
  const client = standaloneClient(adminUrl);
  await client.connect();
  let segment: string;
  try {
    await inTransaction(client, () => client.query('select pg_current_xact_id()'));
    const { rows } = await client.query<{ segment: string }>('select pg_walfile_name(pg_switch_wal()) as segment');
    segment = rows[0]!.segment;
  } finally {
    await client.end().catch(() => {});
  }
  const deadline = Date.now() + ARCHIVE_WAIT_MS;
  while (!existsSync(path.join(walDir, `${segment}.gz`))) {
    if (Date.now() > deadline) throw new Error(`The server did not archive WAL segment ${segment} within a minute: check its archive_command`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The URL of the same role and database on the scratch server. */
export const urlOnPort = (url: string, port: number): string => {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString();
};

/**
 * The server's last words in its log, for a recovery that failed: its last FATAL (or PANIC) message and
 * the line before it, which names the cause (`invalid value for parameter …`, a missing segment).
 */
async function lastError(logFile: string): Promise<string> {
  const lines = (await readFile(logFile, 'utf8').catch(() => '')).split('\n').filter((line) => line.trim());
  const fatal = lines.findLastIndex((line) => /(FATAL|PANIC):/.test(line));
  if (fatal < 0) return 'the recovery server stopped';
  const words = (line: string) => line.replace(/^.*?(LOG|FATAL|PANIC|ERROR|WARNING|DETAIL|HINT):\s*/, '');
  return [fatal > 0 ? words(lines[fatal - 1]!) : '', words(lines[fatal]!)].filter(Boolean).join(': ');
}

async function waitForPromotion(url: string, logFile: string): Promise<void> {
  const deadline = Date.now() + RECOVERY_WAIT_MS;
  for (;;) {
    const client = standaloneClient({ connectionString: url, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      const { rows } = await client.query<{ recovering: boolean }>('select pg_is_in_recovery() as recovering');
      if (!rows[0]!.recovering) return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`Recovery did not finish: ${await lastError(logFile)}`, { cause: error });
    } finally {
      await client.end().catch(() => {});
    }
    if (Date.now() > deadline) throw new Error('Recovery did not finish within 10 minutes');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export interface RecoveryRequest {
  adminUrl: string;
  pitrDir: string;
  target: Date;
  /** Dumps the project's database from the recovered server, given the superuser URL's port there. */
  dump: (port: number) => Promise<Buffer>;
}

/**
 * The database as it was at `target`: the newest base backup before it is copied to a scratch folder,
 * started for recovery up to `target` on a free port, and `dump` runs once it is promoted. The scratch
 * server and its folder go whatever happens.
 */
export async function recoverAt({ adminUrl, pitrDir, target, dump }: RecoveryRequest): Promise<Buffer> {
  const base = baseBackupFor(await listBaseBackups(pitrDir), target);
  if (!base) throw new Error(PitrMessages.noBaseBackup);
  const walDir = path.join(pitrDir, WAL);
  await archiveUpToNow(adminUrl, walDir);
  const scratch = path.join(pitrDir, SCRATCH, randomBytes(6).toString('hex'));
  const dataDir = path.join(scratch, 'data');
  // Inside the copy, which the server's user owns once it starts there.
  const logFile = path.join(dataDir, 'recovery.log');
  let server: Awaited<ReturnType<typeof startServerOnDirectory>> | undefined;
  try {
    await copyDataDirectory(path.join(pitrDir, BASE, base.name, 'data'), dataDir);
    // postgresql.auto.conf is read last: these win over everything the copy carries.
    await appendFile(path.join(dataDir, 'postgresql.auto.conf'), `\n# A point-in-time restore's scratch server.\n${settingsText(recoverySettings(walDir, target))}\n`);
    await writeFile(path.join(dataDir, 'recovery.signal'), '');
    const port = await freePort();
    try {
      server = await startServerOnDirectory(dataDir, port, logFile);
    } catch (error) {
      throw new Error(`Recovery did not start: ${await lastError(logFile)}`, { cause: error });
    }
    await waitForPromotion(urlOnPort(adminUrl, port), logFile);
    return await dump(port);
  } finally {
    await server?.stop().catch(() => {});
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Why this server offers no recovery (null when it does): archiving, and the data directory on this machine. */
async function pitrProblem(adminUrl: string, pitrDir: string): Promise<string | null> {
  const client: pg.Client = standaloneClient({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ archive_mode: string; data_directory: string }>(
      `select current_setting('archive_mode') as archive_mode, current_setting('data_directory') as data_directory`,
    );
    if (rows[0]!.archive_mode === 'off') return PitrMessages.archiveOff;
    if (!existsSync(path.join(rows[0]!.data_directory, 'PG_VERSION')) || !existsSync(path.join(pitrDir, WAL))) return PitrMessages.needsEmbeddedServer;
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The longest retention among projects with the add-on (null: none has it, nothing needs keeping). */
async function longestRetention(db: Kysely<Database>): Promise<number | null> {
  const rows = await db.selectFrom('project_addons').select('variant').where('type', '=', 'pitr').execute();
  const days = rows.map((r) => PITR_RETENTION_DAYS[r.variant]).filter((d): d is number => d !== undefined);
  return days.length ? Math.max(...days) : null;
}

/** How often the archive is looked after (a base backup when the last is a day old, then pruning). */
const MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The archive of one platform process: base backups, pruning and recoveries run one at a time (each
 * copies a data directory); `maintain` runs hourly and when a project selects the add-on.
 */
export class PitrArchive {
  private work: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly ctx: PlatformContext,
    readonly dir: string,
    private readonly log: (message: string) => void = () => {},
  ) {}

  private serial<T>(job: () => Promise<T>): Promise<T> {
    const run = this.work.then(job, job);
    this.work = run.catch(() => undefined);
    return run;
  }

  /** Why the last base backup or pruning failed (the page says so rather than wait), null once one works. */
  lastFailure: string | null = null;

  /** A base backup when a project keeps a window and the newest is older than a day; then pruning. */
  maintain(now: () => Date = () => new Date()): Promise<void> {
    return this.serial(async () => {
      if (this.closed) return;
      try {
        const retention = await longestRetention(this.ctx.db);
        // Without archiving a base backup could never be recovered from.
        if (retention !== null && !(await this.problem())) {
          const newest = (await listBaseBackups(this.dir)).at(-1);
          if (!newest || now().getTime() - newest.completedAt.getTime() >= BASE_BACKUP_INTERVAL_MS) await takeBaseBackup(this.ctx.adminUrl, this.dir);
        }
        await pruneArchive(this.dir, retention, now());
        this.lastFailure = null;
      } catch (error) {
        this.lastFailure = (error as Error).message;
        throw error;
      }
    });
  }

  private serverProblem: Promise<string | null> | null = null;

  /**
   * Why this server offers no recovery, or null (see pitrProblem): asked of the server once per process
   * (its settings change only with a restart, which restarts the platform too), so a member's request
   * never opens a superuser connection. A failed check is asked again next time.
   */
  problem(): Promise<string | null> {
    this.serverProblem ??= pitrProblem(this.ctx.adminUrl, this.dir).catch((error: unknown) => {
      this.serverProblem = null;
      throw error;
    });
    return this.serverProblem;
  }

  /** The database as it was at `target`, dumped by `dump` from the recovered server (see recoverAt). */
  recover(target: Date, dump: (port: number) => Promise<Buffer>): Promise<Buffer> {
    return this.serial(() => recoverAt({ adminUrl: this.ctx.adminUrl, pitrDir: this.dir, target, dump }));
  }

  /** Clears what a stop cut short, looks after the archive now and every hour. */
  async start(): Promise<void> {
    await removeLeftovers(this.dir);
    const tick = () => void this.maintain().catch((error: unknown) => this.log(`point in time recovery archive: ${(error as Error).message}`));
    tick();
    this.timer = setInterval(tick, MAINTENANCE_INTERVAL_MS);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.work;
  }
}

const archives = new WeakMap<PlatformContext, PitrArchive>();

/** The archive of a platform context with `pitrDir` (made on first use), or null without one. */
export function pitrArchiveOf(ctx: PlatformContext, log?: (message: string) => void): PitrArchive | null {
  if (!ctx.pitrDir) return null;
  let archive = archives.get(ctx);
  if (!archive) {
    archive = new PitrArchive(ctx, ctx.pitrDir, log);
    archives.set(ctx, archive);
  }
  return archive;
}
