import type { FastifyInstance } from 'fastify';
import { Messages, Permission, SavedLogQueryMessages, savedLogQueryRoutes, type Identity, type PermissionName } from '@dash/contracts';
import { addRoute, conflict, notFound, userOf } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { deleteSavedLogQuery, findSavedLogQuery, insertSavedLogQuery, listSavedLogQueries, updateSavedLogQuery } from '../db/log-queries';
import { findContentOwnership } from '../db/content';
import { memberProject } from '../projects';

export const LOG_QUERY_ID_TAKEN = 'Another item already has this id';

/** The uuid as Postgres prints it (the contract's format lets through upper case). */
const contentId = (id: string): string => id.toLowerCase();

/**
 * The logs explorer's saved queries (hosted only): each member's own, listed by whoever may read logs
 * and written by whoever may create content (as snippets are).
 */
export async function logQueryRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  const caller = async (identity: Identity | null, ref: string, permission: PermissionName) => {
    if (ctx.mode !== 'hosted') throw notFound(SavedLogQueryMessages.hostedOnly);
    const project = await memberProject(ctx, identity, ref, permission);
    return { projectId: project.id, userId: userOf(identity).sub };
  };

  const existing = async (projectId: number, userId: string, id: string) => {
    const saved = await findSavedLogQuery(ctx.db, projectId, userId, id);
    if (!saved) throw notFound(Messages.contentNotFound);
    return saved;
  };

  addRoute(app, savedLogQueryRoutes.list, async ({ identity, params }) => {
    const c = await caller(identity, params.ref, Permission.AnalyticsRead);
    return { data: await listSavedLogQueries(ctx.db, c.projectId, c.userId) };
  });

  // A retried create answers the query it made; an id taken by anything else is a 409.
  addRoute(app, savedLogQueryRoutes.create, async ({ identity, params, body }) => {
    const c = await caller(identity, params.ref, Permission.UserContentSqlCreate);
    const id = contentId(body.id);
    if (!(await insertSavedLogQuery(ctx.db, { id, projectId: c.projectId, ownerId: c.userId, name: body.name, sql: body.sql }))) {
      const owner = await findContentOwnership(ctx.db, id);
      if (owner?.owner_id !== c.userId || owner.project_id !== c.projectId) throw conflict(LOG_QUERY_ID_TAKEN);
    }
    return existing(c.projectId, c.userId, id);
  });

  addRoute(app, savedLogQueryRoutes.update, async ({ identity, params, body }) => {
    const c = await caller(identity, params.ref, Permission.UserContentSqlCreate);
    const id = contentId(params.id);
    if (!(await updateSavedLogQuery(ctx.db, c.projectId, c.userId, id, body))) throw notFound(Messages.contentNotFound);
    return existing(c.projectId, c.userId, id);
  });

  addRoute(app, savedLogQueryRoutes.delete, async ({ identity, params }) => {
    const c = await caller(identity, params.ref, Permission.UserContentSqlCreate);
    if (!(await deleteSavedLogQuery(ctx.db, c.projectId, c.userId, contentId(params.id)))) throw notFound(Messages.contentNotFound);
    return { ok: true as const };
  });
}
