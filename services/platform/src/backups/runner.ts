import { PitrMessages, SCHEDULED_BACKUP_RETENTION_DAYS } from '@dash/contracts';
import { databaseOf, projectRoleName, quoteIdent, quoteLiteral, standaloneClient } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { completeBackup, deleteScheduledBackupsBefore, failBackup, insertBackup, projectsDueForBackup } from '../db/backups';
import { projectRowById } from '../db/project-settings';
import type { ProjectRow } from '../db/schema';
import { decryptConnection, decryptRolePasswords, projectRoleConnection } from '../projects';
import { dumpDatabase } from './pg-dump';
import { pitrArchiveOf, urlOnPort } from './pitr';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often the schedule looks for projects without today's backup. */
const BACKUP_SCHEDULE_INTERVAL_MS = 60 * 60 * 1000;

export interface BackupRunnerOptions {
  /** Failures of the schedule itself (the app's logger). */
  log?: (message: string) => void;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)) || 'Unknown error';

/** The UTC day of `now`, as the schedule names it (`2026-11-28`). */
export const backupDay = (now: Date): string => now.toISOString().slice(0, 10);

/**
 * Makes the backups of this process: one pg_dump at a time, in the order asked (a dump keeps a core busy
 * and holds the file in memory), each backup's row RUNNING until its file is stored (COMPLETED) or the
 * dump failed (FAILED, with the reason). The daily schedule is `runSchedule`, on a timer in the service.
 */
export class BackupRunner {
  private queue: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private scheduling: Promise<unknown> | null = null;
  private closed = false;
  /** Jobs queued or running, by backup id (a restore from a backup still being made waits for it). */
  private readonly jobs = new Map<number, Promise<void>>();

  constructor(
    private readonly ctx: PlatformContext,
    private readonly options: BackupRunnerOptions = {},
  ) {}

  /** Dumps the project into the RUNNING backup `backupId` after the dumps queued before; resolves when it has ended. */
  enqueue(backupId: number, projectId: number): Promise<void> {
    return this.add(backupId, projectId, (project) => dumpDatabase(projectRoleConnection(this.ctx, project, 'admin')));
  }

  /**
   * Fills the RUNNING point-in-time backup `backupId` with the project's database as it was at `target`:
   * the archive recovers the server in a scratch copy, where the dump runs as the project's admin role.
   * The role is given its current password there first: the copy has the one it had at `target`.
   */
  enqueuePointInTime(backupId: number, projectId: number, target: Date): Promise<void> {
    return this.add(backupId, projectId, async (project) => {
      const archive = pitrArchiveOf(this.ctx);
      if (!archive) throw new Error(PitrMessages.needsEmbeddedServer);
      return archive.recover(target, async (port) => {
        const superuser = urlOnPort(decryptConnection(this.ctx, project), port);
        const admin = projectRoleName(databaseOf(superuser), 'admin');
        const client = standaloneClient(superuser);
        await client.connect();
        try {
          await client.query(`alter role ${quoteIdent(admin)} password ${quoteLiteral(decryptRolePasswords(this.ctx, project).admin)}`);
        } finally {
          await client.end().catch(() => {});
        }
        return dumpDatabase(urlOnPort(projectRoleConnection(this.ctx, project, 'admin'), port));
      });
    });
  }

  /** Resolves when the job of `backupId` queued in this process has ended (at once when there is none). */
  finished(backupId: number): Promise<void> {
    return this.jobs.get(backupId) ?? Promise.resolve();
  }

  private add(backupId: number, projectId: number, content: (project: ProjectRow) => Promise<Buffer>): Promise<void> {
    const job = this.queue.then(() => this.fill(backupId, projectId, content));
    this.queue = job;
    this.jobs.set(backupId, job);
    void job.finally(() => this.jobs.delete(backupId));
    return job;
  }

  private async fill(backupId: number, projectId: number, content: (project: ProjectRow) => Promise<Buffer>): Promise<void> {
    try {
      if (this.closed) throw new Error('The platform stopped before this backup ran');
      const project = await projectRowById(this.ctx.db, projectId);
      await completeBackup(this.ctx.db, backupId, await content(project));
    } catch (error) {
      await failBackup(this.ctx.db, backupId, messageOf(error)).catch((problem: unknown) =>
        this.options.log?.(`backup ${backupId} failed (${messageOf(error)}) and could not be marked so: ${messageOf(problem)}`),
      );
    }
  }

  /**
   * The daily schedule at `now`: one scheduled backup of every active project that has none for the
   * day yet (made one after another), then the scheduled backups of days past the retention period are
   * deleted.
   * Returns the ids of the backups it made.
   */
  async runSchedule(now: Date): Promise<number[]> {
    const day = backupDay(now);
    const made: number[] = [];
    for (const project of await projectsDueForBackup(this.ctx.db, day)) {
      if (this.closed) break;
      const backup = await insertBackup(this.ctx.db, { projectId: project.id, kind: 'scheduled', scheduledFor: day });
      if (!backup) continue;
      made.push(backup.id);
      await this.enqueue(backup.id, project.id);
    }
    // Kept: the day's backup and those of the days before it, SCHEDULED_BACKUP_RETENTION_DAYS in all.
    await deleteScheduledBackupsBefore(this.ctx.db, backupDay(new Date(now.getTime() - (SCHEDULED_BACKUP_RETENTION_DAYS - 1) * DAY_MS)));
    return made;
  }

  /**
   * Runs the schedule every BACKUP_SCHEDULE_INTERVAL_MS (the first time after one interval, so a restart
   * does not start dumping at once); a run still going when the next is due is not doubled.
   */
  startSchedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => {
      if (this.scheduling) return;
      this.scheduling = this.runSchedule(new Date())
        .catch((error: unknown) => this.options.log?.(`scheduled backups failed: ${messageOf(error)}`))
        .finally(() => (this.scheduling = null));
    }, BACKUP_SCHEDULE_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops the schedule and waits for the dump under way; queued ones are marked failed. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([this.queue, this.scheduling]);
  }
}

const runners = new WeakMap<PlatformContext, BackupRunner>();

/** The backup runner of a platform context, made on first use with `options` (the backup routes make it). */
export function backupRunnerOf(ctx: PlatformContext, options?: BackupRunnerOptions): BackupRunner {
  let runner = runners.get(ctx);
  if (!runner) {
    runner = new BackupRunner(ctx, options);
    runners.set(ctx, runner);
  }
  return runner;
}
