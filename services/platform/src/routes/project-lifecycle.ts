import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import {
  Permission,
  ProjectMessages,
  projectLifecycleRoutes,
  projectNameProblem,
  roleHasPermission,
  ServiceMessages,
  type Identity,
  type Project,
  type ProjectLifecycle,
} from '@dash/contracts';
import {
  addRoute,
  badRequest,
  conflict,
  databaseUnavailable,
  dropProjectDatabase,
  forbidden,
  HttpError,
  isConnectionFailure,
  notFound,
  userOf,
} from '@dash/service-kit';
import { recordAudit } from '../audit';
import type { PlatformContext } from '../context';
import { findProjectByRef, findProjectOf } from '../db/projects';
import type { Database, ProjectRow } from '../db/schema';
import { isUserId } from '../db/users';
import { insertProject, memberProject, projectRoleConnection } from '../projects';
import { databaseOfProject, provisionerOf, setConnectionsAllowed } from '../provisioner';

/**
 * Creating, renaming, pausing, restoring and deleting projects: owners and administrators
 * (`Permission.ProjectAdminWrite`, checked on the organization's members table). Every member reads a
 * project's lifecycle and infrastructure.
 */
export async function projectLifecycleRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  const provisioner = provisionerOf(ctx, { log: (message) => app.log.warn(message) });
  app.addHook('onClose', () => provisioner.close());

  addRoute(app, projectLifecycleRoutes.createProject, async ({ identity, body }) => {
    const user = userOf(identity);
    const org = await membershipOf(ctx.db, user.sub, body.organization_slug);
    if (!org) throw notFound(ProjectMessages.organizationNotFound);
    if (!roleHasPermission(org.role, Permission.ProjectAdminWrite)) throw forbidden(ProjectMessages.cannotCreate);
    const row = await insertProject(ctx, { name: body.name, orgId: org.id, databasePassword: body.db_pass, actor: actorOf(identity) });
    provisioner.start(row.ref);
    return projectOf(ctx, user.sub, row.ref);
  });

  addRoute(app, projectLifecycleRoutes.projectLifecycle, async ({ identity, params }) => {
    await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminRead);
    return lifecycleOf(await rowOf(ctx, params.ref));
  });

  addRoute(app, projectLifecycleRoutes.renameProject, async ({ identity, params, body }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.ProjectAdminWrite);
    const problem = projectNameProblem(body.name);
    if (problem) throw badRequest(problem);
    const name = body.name.trim();
    await ctx.db.transaction().execute(async (trx) => {
      const row = await lockedRow(trx, project.ref);
      await trx.updateTable('projects').set({ name }).where('id', '=', row.id).execute();
      await recordAudit(trx, { ...auditOf(identity, project, row), action: 'project.renamed', target: name, details: { from: row.name } });
    });
    return projectOf(ctx, userOf(identity).sub, project.ref);
  });

  // The status change and the database's refusal land together: if the server cannot be told, the
  // transaction rolls back and the project stays as it was.
  addRoute(app, projectLifecycleRoutes.pauseProject, async ({ identity, params }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.ProjectAdminWrite);
    await ctx.db.transaction().execute(async (trx) => {
      const row = await lockedRow(trx, project.ref);
      if (row.status === 'COMING_UP') throw conflict(ProjectMessages.stillComingUp);
      if (row.status === 'INACTIVE') throw conflict(ProjectMessages.alreadyPaused);
      await trx.updateTable('projects').set({ status: 'INACTIVE', paused_at: new Date() }).where('id', '=', row.id).execute();
      await recordAudit(trx, { ...auditOf(identity, project, row), action: 'project.paused', target: row.name });
      await onServer(() => setConnectionsAllowed(ctx, databaseOfProject(ctx, row), false));
    });
    return projectOf(ctx, userOf(identity).sub, project.ref);
  });

  addRoute(app, projectLifecycleRoutes.restoreProject, async ({ identity, params }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.ProjectAdminWrite);
    await ctx.db.transaction().execute(async (trx) => {
      const row = await lockedRow(trx, project.ref);
      if (row.status === 'COMING_UP') throw conflict(ProjectMessages.stillComingUp);
      if (row.status === 'ACTIVE_HEALTHY') throw conflict(ProjectMessages.notPaused);
      await trx.updateTable('projects').set({ status: 'ACTIVE_HEALTHY', paused_at: null }).where('id', '=', row.id).execute();
      await recordAudit(trx, { ...auditOf(identity, project, row), action: 'project.restored', target: row.name });
      await onServer(() => setConnectionsAllowed(ctx, databaseOfProject(ctx, row), true));
    });
    return projectOf(ctx, userOf(identity).sub, project.ref);
  });

  addRoute(app, projectLifecycleRoutes.retryProvisioning, async ({ identity, params }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.ProjectAdminWrite);
    const row = await ctx.db
      .updateTable('projects')
      .set({ provisioning_error: null })
      .where('ref', '=', project.ref)
      .where('status', '=', 'COMING_UP')
      .returningAll()
      .executeTakeFirst();
    if (!row) throw conflict(ProjectMessages.notComingUp);
    provisioner.retry(row.ref);
    return lifecycleOf(row);
  });

  // The row goes first (with everything the platform keeps for the project), so nobody sees a project
  // without a database; then any provisioning under way ends and the database and its roles are dropped.
  addRoute(app, projectLifecycleRoutes.deleteProject, async ({ identity, params, body, request }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.ProjectAdminWrite);
    const database = await ctx.db.transaction().execute(async (trx) => {
      const row = await lockedRow(trx, project.ref);
      // Checked on the locked row: a rename at the same moment makes the old name wrong.
      if (body.name !== row.name) throw badRequest(ProjectMessages.deleteNameMismatch);
      await trx.deleteFrom('projects').where('id', '=', row.id).execute();
      await recordAudit(trx, { ...auditOf(identity, project, row), action: 'project.deleted', target: row.name });
      return databaseOfProject(ctx, row);
    });
    await provisioner.settle(project.ref);
    try {
      await dropProjectDatabase(ctx.adminUrl, database);
    } catch (error) {
      // The project is gone for its members either way; the database is left for an operator to drop.
      request.log.error({ err: error, database }, 'the database of a deleted project could not be dropped');
    }
    return { ok: true as const };
  });

  // Read as the project's admin role, like every read a member asks for.
  addRoute(app, projectLifecycleRoutes.projectInfrastructure, async ({ identity, params }) => {
    await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminRead);
    const row = await rowOf(ctx, params.ref);
    if (row.status !== 'ACTIVE_HEALTHY') throw notActive(row);
    const client = new pg.Client({ connectionString: projectRoleConnection(ctx, row, 'admin'), connectionTimeoutMillis: 5000 });
    client.on('error', () => {});
    try {
      await client.connect();
      const { rows } = await client.query<{ version: string; size: number }>(
        `select current_setting('server_version') as version, pg_database_size(current_database()) as size`,
      );
      return { postgres_version: rows[0]!.version, database_size_bytes: Number(rows[0]!.size) };
    } catch (error) {
      if (isConnectionFailure(error)) throw databaseUnavailable();
      throw error;
    } finally {
      await client.end().catch(() => {});
    }
  });

  addRoute(app, projectLifecycleRoutes.projectStatus, async ({ params }) => {
    const row = await rowOf(ctx, params.ref);
    return { ref: row.ref, status: row.status };
  });
}

/** The 503 of a project that is paused or coming up. */
function notActive(row: Pick<ProjectRow, 'ref' | 'status'>): HttpError {
  return new HttpError(503, row.status === 'INACTIVE' ? ProjectMessages.projectPaused(row.ref) : ProjectMessages.projectComingUp(row.ref));
}

function lifecycleOf(row: ProjectRow): ProjectLifecycle {
  return {
    ref: row.ref,
    name: row.name,
    status: row.status,
    provisioning: { step: row.provisioning_step, error: row.provisioning_error, attempts: row.provisioning_attempts },
    paused_at: row.paused_at?.toISOString() ?? null,
  };
}

async function rowOf(ctx: PlatformContext, ref: string): Promise<ProjectRow> {
  const row = await findProjectByRef(ctx.db, ref);
  if (!row) throw notFound(ServiceMessages.projectNotFound);
  return row;
}

/** The project row, locked until the transaction ends (two lifecycle changes of one project queue up). */
async function lockedRow(trx: Kysely<Database>, ref: string): Promise<ProjectRow> {
  const row = await trx.selectFrom('projects').selectAll().where('ref', '=', ref).forUpdate().executeTakeFirst();
  if (!row) throw notFound(ServiceMessages.projectNotFound);
  return row;
}

async function projectOf(ctx: PlatformContext, userId: string, ref: string): Promise<Project> {
  const project = await findProjectOf(ctx.db, userId, ref);
  if (!project) throw notFound(ServiceMessages.projectNotFound);
  return project;
}

async function membershipOf(db: Kysely<Database>, userId: string, slug: string) {
  if (!isUserId(userId)) return undefined;
  return db
    .selectFrom('organizations as o')
    .innerJoin('members as m', 'm.org_id', 'o.id')
    .select(['o.id', 'o.slug', 'm.role'])
    .where('o.slug', '=', slug)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
}

function actorOf(identity: Identity | null) {
  const user = userOf(identity);
  return { id: user.sub, email: user.email };
}

function auditOf(identity: Identity | null, project: Project, row: ProjectRow) {
  return { actor: actorOf(identity), org: { id: row.org_id, slug: project.organization_slug }, projectRef: row.ref };
}

/** A server that cannot be reached while pausing or restoring is a 503, not a bug. */
async function onServer(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (isConnectionFailure(error)) throw databaseUnavailable();
    throw error;
  }
}
