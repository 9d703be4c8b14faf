import type { FastifyInstance } from 'fastify';
import { Messages, NEW_REPORT_CONTENT, Permission, reportRoutes, type CustomReport, type Identity, type PermissionName } from '@dash/contracts';
import { addRoute, conflict, notFound, userOf } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { findContentOwnership } from '../db/content';
import { deleteReports, findReport, insertReport, listReports, updateReport } from '../db/reports';
import { memberProject } from '../projects';

export const REPORT_ID_TAKEN = 'Another item already has this id';

/** The uuid as Postgres prints it (the contract's format lets through upper case and a `urn:uuid:` prefix). */
const contentId = (id: string): string => id.toLowerCase().replace(/^urn:uuid:/, '');

async function callerOf(ctx: PlatformContext, identity: Identity | null, ref: string, permission: PermissionName) {
  const project = await memberProject(ctx, identity, ref, permission);
  return { projectId: project.id, userId: userOf(identity).sub };
}

/**
 * Custom reports. They are project content (visibility `project`): every member who may read the
 * project's content sees them, and every member who may create content (as for snippets,
 * user_content_sql_create) creates, changes and deletes them; Read-only members only look.
 */
export async function reportContentRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  const read = (identity: Identity | null, ref: string) => callerOf(ctx, identity, ref, Permission.TenantSqlAdminRead);
  const write = (identity: Identity | null, ref: string) => callerOf(ctx, identity, ref, Permission.UserContentSqlCreate);

  const existing = async (projectId: number, id: string): Promise<CustomReport> => {
    const report = await findReport(ctx.db, projectId, id);
    if (!report) throw notFound(Messages.contentNotFound);
    return report;
  };

  addRoute(app, reportRoutes.listReports, async ({ identity, params }) => {
    const caller = await read(identity, params.ref);
    return { data: await listReports(ctx.db, caller.projectId) };
  });

  addRoute(app, reportRoutes.getReport, async ({ identity, params }) => existing((await read(identity, params.ref)).projectId, contentId(params.id)));

  // A retried create (same id, same member, same project) answers the report it made; an id that is
  // anything else already is a 409.
  addRoute(app, reportRoutes.createReport, async ({ identity, params, body }) => {
    const caller = await write(identity, params.ref);
    const id = contentId(body.id);
    const report = await ctx.db.transaction().execute(async (trx) => {
      const inserted = await insertReport(trx, {
        id,
        projectId: caller.projectId,
        ownerId: caller.userId,
        name: body.name,
        description: body.description ?? null,
        content: body.content ?? NEW_REPORT_CONTENT,
      });
      if (!inserted) {
        const owner = await findContentOwnership(trx, id);
        if (owner?.owner_id !== caller.userId || owner.project_id !== caller.projectId) throw conflict(REPORT_ID_TAKEN);
      }
      return findReport(trx, caller.projectId, id);
    });
    if (!report) throw conflict(REPORT_ID_TAKEN);
    return [report];
  });

  addRoute(app, reportRoutes.updateReport, async ({ identity, params, body }) => {
    const caller = await write(identity, params.ref);
    const id = contentId(params.id);
    if (!(await updateReport(ctx.db, caller.projectId, id, body))) throw notFound(Messages.contentNotFound);
    return existing(caller.projectId, id);
  });

  addRoute(app, reportRoutes.deleteReports, async ({ identity, params, body }) => {
    const caller = await write(identity, params.ref);
    const deleted = await deleteReports(ctx.db, caller.projectId, [...new Set(body.ids.map(contentId))]);
    if (!deleted.length) throw notFound(Messages.contentNotFound);
    return { deleted };
  });
}
