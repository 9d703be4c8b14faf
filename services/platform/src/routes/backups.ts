import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { BackupMessages, backupRoutes, Permission, ServiceMessages, type BackupList, type Identity, type PermissionName, type Project } from '@dash/contracts';
import { addRoute, conflict, notFound, userOf } from '@dash/service-kit';
import { recordAudit } from '../audit';
import { PgDumpUnavailableError, pgDumpProblem, pgDumpTool } from '../backups/pg-dump';
import { backupRunnerOf } from '../backups/runner';
import type { PlatformContext } from '../context';
import { backupContent, findBackup, insertBackup, listBackups } from '../db/backups';
import { findProjectOf } from '../db/projects';
import { projectOrganization, projectRowById } from '../db/project-settings';
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
  app.addHook('onClose', () => runner.close());
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

  // The new project comes up as every new project does (the building page follows it); its provisioning
  // restores the backup before marking it active, and a failed restore is retried like a failed step.
  addRoute(app, backupRoutes.restoreBackup, async ({ identity, params, body }) => {
    const project = await caller(identity, params.ref, Permission.ProjectAdminWrite);
    const backup = await completedBackup(project.id, params.id);
    const org = await projectOrganization(ctx.db, project.id);
    const actor = actorOf(identity);
    const row = await insertProject(ctx, { name: body.name, orgId: org.id, databasePassword: body.db_pass, actor, restoreFrom: backup.id });
    provisionerOf(ctx).start(row.ref);
    await recordAudit(ctx.db, {
      action: 'backup.restored',
      actor,
      org,
      projectRef: project.ref,
      target: `Backup ${backup.id}`,
      details: { into_project: row.ref },
    });
    const created = await findProjectOf(ctx.db, actor.id, row.ref);
    if (!created) throw notFound(ServiceMessages.projectNotFound);
    return created;
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
