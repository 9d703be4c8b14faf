import type { FastifyInstance } from 'fastify';
import { Permission, platformRoutes } from '@dash/contracts';
import { addRoute } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { getAuthConfig, updateAuthConfig } from '../db/auth-config';
import { memberProject } from '../projects';

export async function authConfigRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, platformRoutes.getAuthConfig, async ({ identity, params }) =>
    getAuthConfig(ctx.db, (await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminRead)).id),
  );
  addRoute(app, platformRoutes.updateAuthConfig, async ({ identity, params, body }) =>
    updateAuthConfig(ctx.db, (await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminWrite)).id, body),
  );
}
