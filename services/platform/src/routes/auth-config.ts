import type { FastifyInstance } from 'fastify';
import { Permission, platformRoutes } from '@dash/contracts';
import { addRoute } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { getAuthConfig, updateAuthConfig } from '../db/auth-config';
import { projectOrganization } from '../db/project-settings';
import { recordAudit } from '../audit';
import { memberProject } from '../projects';
import { actorOf } from './organizations';

export async function authConfigRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, platformRoutes.getAuthConfig, async ({ identity, params }) =>
    getAuthConfig(ctx.db, (await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminRead)).id),
  );
  addRoute(app, platformRoutes.updateAuthConfig, async ({ identity, params, body }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminWrite);
    const org = await projectOrganization(ctx.db, project.id);
    return ctx.db.transaction().execute(async (trx) => {
      const config = await updateAuthConfig(trx, project.id, body);
      await recordAudit(trx, { action: 'project.auth_config_updated', actor: actorOf(identity), org, projectRef: project.ref, target: project.name, details: body });
      return config;
    });
  });
}
