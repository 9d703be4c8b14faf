import type { FastifyInstance } from 'fastify';
import { Permission, platformRoutes, roleHasPermission, ServiceMessages, type Identity, type PermissionName } from '@dash/contracts';
import { addRoute, forbidden, notFound, userOf } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { getAuthConfig, updateAuthConfig } from '../db/auth-config';
import { findProjectOf } from '../db/projects';

/**
 * The project's id when the caller is a member holding `permission`. The route's access rule has
 * checked the identity's claims already; membership and role are checked again from the database, as
 * every project route of the platform does (a project the caller is not a member of is a 404).
 */
async function projectIdFor(ctx: PlatformContext, identity: Identity | null, ref: string, permission: PermissionName): Promise<number> {
  const project = await findProjectOf(ctx.db, userOf(identity).sub, ref);
  if (!project) throw notFound(ServiceMessages.projectNotFound);
  if (!roleHasPermission(project.role, permission)) throw forbidden(ServiceMessages.forbidden);
  return project.id;
}

export async function authConfigRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, platformRoutes.getAuthConfig, async ({ identity, params }) =>
    getAuthConfig(ctx.db, await projectIdFor(ctx, identity, params.ref, Permission.TenantSqlAdminRead)),
  );
  addRoute(app, platformRoutes.updateAuthConfig, async ({ identity, params, body }) =>
    updateAuthConfig(ctx.db, await projectIdFor(ctx, identity, params.ref, Permission.TenantSqlAdminWrite), body),
  );
}
