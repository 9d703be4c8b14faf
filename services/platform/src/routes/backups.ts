import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import {
  BackupMessages,
  backupRoutes,
  newProjectPasswordProblem,
  Permission,
  PITR_RETENTION_DAYS,
  PitrMessages,
  pitrRoutes,
  projectNameProblem,
  ServiceMessages,
  type BackupList,
  type BackupRestore,
  type Identity,
  type PermissionName,
  type PitrStatus,
  type Project,
} from '@dash/contracts';
import { addRoute, badRequest, conflict, notFound, userOf } from '@dash/service-kit';
import { recordAudit } from '../audit';
import { PgDumpUnavailableError, pgDumpProblem, pgDumpTool } from '../backups/pg-dump';
import { listBaseBackups, pitrArchiveOf, recoveryWindow } from '../backups/pitr';
import { backupRunnerOf } from '../backups/runner';
import type { PlatformContext } from '../context';
import { backupContent, findBackup, insertBackup, listBackups } from '../db/backups';
import { findProjectOf } from '../db/projects';
import { projectOrganization, projectRowById, selectedAddons } from '../db/project-settings';
import { insertProject, memberProject, projectRoleConnection } from '../projects';
import { provisionerOf } from '../provisioner';
import { actorOf } from './organizations';

/** `default-2026-11-28T09-30-00Z.sql`: the project and when the backup was made (ASCII only). */
export const backupFileName = (ref: string, createdAt: string): string => `${ref}-${createdAt.slice(0, 19).replace(/:/g, '-')}Z.sql`;

/**
 * Database backups (hosted only; who may do what is in the contract): the list, an on-demand backup
 * (dumped in the background by the backup runner, which also keeps the daily schedule), the file, and a
 * restore into a new project of the same organization.
 */
export async function backupRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  const runner = backupRunnerOf(ctx, { log: (message) => app.log.warn(message) });
  const archive = pitrArchiveOf(ctx, (message) => app.log.warn(message));
  app.addHook('onClose', async () => {
    await runner.close();
    await archive?.close();
  });
  // The server's major version per project, read once as the project's admin role.
  const serverMajors = new Map<string, number>();

  const caller = async (identity: Identity | null, ref: string, permission: PermissionName): Promise<Project> => {
    if (ctx.mode !== 'hosted') throw notFound(BackupMessages.hostedOnly);
    return memberProject(ctx, identity, ref, permission);
  };

  const completedBackup = async (projectId: number, id: number) => {
    const backup = await findBackup(ctx.db, projectId, id);
    if (!backup) throw notFound(BackupMessages.notFound);
    if (backup.status !== 'COMPLETED') throw conflict(BackupMessages.notCompleted);
    return backup;
  };

  /** Which pg_dump backups are made with, and why none can be made of this project now. */
  const pgDumpState = async (project: Project): Promise<BackupList['pg_dump']> => {
    const tool = await pgDumpTool().catch((error: unknown) => {
      if (error instanceof PgDumpUnavailableError) return error;
      throw error;
    });
    if (tool instanceof PgDumpUnavailableError) return { version: null, problem: tool.message };
    let major = serverMajors.get(project.ref);
    if (major === undefined && project.status === 'ACTIVE_HEALTHY') {
      major = await serverMajorOf(projectRoleConnection(ctx, await projectRowById(ctx.db, project.id), 'admin'));
      if (major !== undefined) serverMajors.set(project.ref, major);
    }
    return { version: tool.version, problem: major === undefined ? null : pgDumpProblem(tool, major) };
  };

  addRoute(app, backupRoutes.listBackups, async ({ identity, params }) => {
    const project = await caller(identity, params.ref, Permission.TenantSqlAdminRead);
    const [backups, pgDump] = await Promise.all([listBackups(ctx.db, project.id), pgDumpState(project)]);
    return { backups, pg_dump: pgDump };
  });

  addRoute(app, backupRoutes.createBackup, async ({ identity, params }) => {
    const project = await caller(identity, params.ref, Permission.ProjectAdminWrite);
    if (project.status !== 'ACTIVE_HEALTHY') throw conflict(BackupMessages.projectNotActive);
    const org = await projectOrganization(ctx.db, project.id);
    const backup = await ctx.db.transaction().execute(async (trx) => {
      const made = await insertBackup(trx, { projectId: project.id, kind: 'on-demand', createdBy: userOf(identity).sub });
      if (!made) throw conflict(BackupMessages.alreadyRunning);
      await recordAudit(trx, { action: 'backup.created', actor: actorOf(identity), org, projectRef: project.ref, target: `Backup ${made.id}` });
      return made;
    });
    // The dump goes on after the reply; its outcome lands on the row, which the list shows.
    void runner.enqueue(backup.id, project.id);
    return backup;
  });

  addRoute(app, backupRoutes.downloadBackup, async ({ identity, params, reply }) => {
    const project = await caller(identity, params.ref, Permission.ProjectAdminWrite);
    const backup = await completedBackup(project.id, params.id);
    const content = await backupContent(ctx.db, backup.id);
    if (!content) throw notFound(BackupMessages.notFound);
    await recordAudit(ctx.db, {
      action: 'backup.downloaded',
      actor: actorOf(identity),
      org: await projectOrganization(ctx.db, project.id),
      projectRef: project.ref,
      target: `Backup ${backup.id}`,
    });
    reply
      .type('application/sql; charset=utf-8')
      .header('content-disposition', `attachment; filename="${backupFileName(project.ref, backup.created_at.toISOString())}"`);
    // A Buffer is sent as it is: the route's string schema never serializes it.
    return content as unknown as string;
  });

  /**
   * A new project of the same organization made from backup `backupId`: it comes up as every new project
   * does (the building page follows it), and its provisioning restores the backup before marking it
   * active (a failed restore is retried like a failed step). Answers with the project.
   */
  const restoreIntoNewProject = async (
    identity: Identity | null,
    project: Project,
    backupId: number,
    body: BackupRestore,
    audit: { target: string; details: Record<string, unknown> },
  ): Promise<Project> => {
    const org = await projectOrganization(ctx.db, project.id);
    const actor = actorOf(identity);
    const row = await insertProject(ctx, { name: body.name, orgId: org.id, databasePassword: body.db_pass, actor, restoreFrom: backupId });
    provisionerOf(ctx).start(row.ref);
    await recordAudit(ctx.db, { action: 'backup.restored', actor, org, projectRef: project.ref, target: audit.target, details: { into_project: row.ref, ...audit.details } });
    const created = await findProjectOf(ctx.db, actor.id, row.ref);
    if (!created) throw notFound(ServiceMessages.projectNotFound);
    return created;
  };

  /** The project's add-on, the server's ability, and the window its base backups open. */
  const pitrStatus = async (project: Project, now: Date): Promise<PitrStatus> => {
    const variant = (await selectedAddons(ctx.db, project.id)).find((addon) => addon.type === 'pitr')?.variant;
    const retentionDays = variant ? (PITR_RETENTION_DAYS[variant] ?? null) : null;
    const problem = archive ? await archive.problem() : PitrMessages.needsEmbeddedServer;
    const backups = archive && !problem ? await listBaseBackups(archive.dir) : [];
    const window = retentionDays === null ? null : recoveryWindow(backups, retentionDays, now);
    return {
      enabled: retentionDays !== null,
      problem: problem ?? (retentionDays !== null && !window ? (archive?.lastFailure ? PitrMessages.baseBackupFailed(archive.lastFailure) : PitrMessages.noBaseBackup) : null),
      retention_days: retentionDays,
      earliest_recovery_time: window?.earliest.toISOString() ?? null,
      latest_recovery_time: window?.latest.toISOString() ?? null,
      base_backups: backups.reverse().map((b) => ({ completed_at: b.completedAt.toISOString(), size_bytes: b.sizeBytes })),
    };
  };

  addRoute(app, pitrRoutes.pitrStatus, async ({ identity, params }) =>
    pitrStatus(await caller(identity, params.ref, Permission.TenantSqlAdminRead), new Date()),
  );

  // As a backup restore, into a new project; its point-in-time backup is made while it comes up.
  addRoute(app, pitrRoutes.restorePitr, async ({ identity, params, body }) => {
    const project = await caller(identity, params.ref, Permission.ProjectAdminWrite);
    if (project.status !== 'ACTIVE_HEALTHY') throw conflict(BackupMessages.projectNotActive);
    const target = new Date(body.recovery_time_target);
    const status = await pitrStatus(project, new Date());
    if (!status.enabled) throw badRequest(PitrMessages.notEnabled);
    if (status.problem) throw badRequest(status.problem);
    if (target < new Date(status.earliest_recovery_time!) || target > new Date(status.latest_recovery_time!)) {
      throw badRequest(PitrMessages.outsideWindow(status.earliest_recovery_time!, status.latest_recovery_time!));
    }
    // The new project's name and password are checked before the recovery is queued, as insertProject would.
    const inputProblem = projectNameProblem(body.name) ?? newProjectPasswordProblem(body.db_pass);
    if (inputProblem) throw badRequest(inputProblem);
    const backup = (await insertBackup(ctx.db, { projectId: project.id, kind: 'point-in-time', createdBy: userOf(identity).sub, recoveryTarget: target }))!;
    void runner.enqueuePointInTime(backup.id, project.id, target);
    return restoreIntoNewProject(identity, project, backup.id, body, {
      target: `Point in time ${target.toISOString()}`,
      details: { recovery_time_target: target.toISOString(), backup: backup.id },
    });
  });

  addRoute(app, backupRoutes.restoreBackup, async ({ identity, params, body }) => {
    const project = await caller(identity, params.ref, Permission.ProjectAdminWrite);
    const backup = await completedBackup(project.id, params.id);
    return restoreIntoNewProject(identity, project, backup.id, body, { target: `Backup ${backup.id}`, details: {} });
  });
}

/** `server_version_num`'s major, or undefined when the database cannot be reached now (the dump will say). */
async function serverMajorOf(connectionString: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ major: number }>(`select current_setting('server_version_num')::int / 10000 as major`);
    return rows[0]!.major;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}
