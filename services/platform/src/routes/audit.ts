import type { FastifyInstance } from 'fastify';
import { AUDIT_PAGE_SIZE, auditRoutes, OrgPermission, ServiceMessages } from '@dash/contracts';
import { addRoute, notFound, userOf } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { recordAudit } from '../audit';
import { listAuditEvents } from '../db/audit';
import { findProjectByRef } from '../db/projects';
import { memberOrganization } from './organizations';

/** The audit log: an organization's (owners and administrators), the user's own, and the other services' door to it. */
export async function auditLogRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, auditRoutes.listOrganizationAudit, async ({ identity, params, query }) => {
    const org = await memberOrganization(ctx.db, identity, params.slug, OrgPermission.AuditRead);
    return listAuditEvents(ctx.db, { orgId: org.id }, { before: query.before, limit: query.limit ?? AUDIT_PAGE_SIZE });
  });

  addRoute(app, auditRoutes.listAccountAudit, async ({ identity, query }) =>
    listAuditEvents(ctx.db, { actorId: userOf(identity).sub }, { before: query.before, limit: query.limit ?? AUDIT_PAGE_SIZE }),
  );

  // Storage and pg-meta call this after their change has committed; the event joins the project's organization.
  addRoute(app, auditRoutes.recordAudit, async ({ body }) => {
    const project = await findProjectByRef(ctx.db, body.project_ref);
    if (!project) throw notFound(ServiceMessages.projectNotFound);
    const org = await ctx.db.selectFrom('organizations').select(['id', 'slug']).where('id', '=', project.org_id).executeTakeFirstOrThrow();
    await recordAudit(ctx.db, {
      action: body.action,
      actor: body.actor,
      org,
      projectRef: project.ref,
      target: body.target,
      details: body.details,
    });
    return { ok: true as const };
  });
}
