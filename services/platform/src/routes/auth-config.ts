import type { FastifyInstance } from 'fastify';
import { authHostedConfigRoutes, authSettingsRoutes, Permission, platformRoutes, ServiceMessages } from '@dash/contracts';
import { addRoute, badRequest, notFound } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { getAuthConfig, getAuthHostedConfig, updateAuthConfig, updateAuthHostedConfig } from '../db/auth-config';
import { projectOrganization } from '../db/project-settings';
import { recordAudit } from '../audit';
import { findProjectByRef } from '../db/projects';
import { memberProject, projectJwtSecret } from '../projects';
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

  addRoute(app, authHostedConfigRoutes.getAuthHostedConfig, async ({ identity, params }) =>
    getAuthHostedConfig(ctx.db, (await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminRead)).id),
  );
  addRoute(app, authHostedConfigRoutes.updateAuthHostedConfig, async ({ identity, params, body }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminWrite);
    const org = await projectOrganization(ctx.db, project.id);
    return ctx.db.transaction().execute(async (trx) => {
      const result = await updateAuthHostedConfig(trx, project.id, body);
      if ('problem' in result) throw badRequest(result.problem);
      // The audit names the changed keys, not the values (templates are long, client IDs are the project's).
      await recordAudit(trx, { action: 'project.auth_config_updated', actor: actorOf(identity), org, projectRef: project.ref, target: project.name, details: { keys: Object.keys(body) } });
      return result.config;
    });
  });

  // The auth service's read of everything Authentication's pages set, with the secret its tokens are signed with.
  addRoute(app, authSettingsRoutes.projectAuthSettings, async ({ params }) => {
    const project = await findProjectByRef(ctx.db, params.ref);
    if (!project) throw notFound(ServiceMessages.projectNotFound);
    const [jwtSecret, config, hosted] = await Promise.all([projectJwtSecret(ctx, project), getAuthConfig(ctx.db, project.id), getAuthHostedConfig(ctx.db, project.id)]);
    return { jwtSecret, config, hosted };
  });
}
