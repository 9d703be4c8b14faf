import type { FastifyInstance } from 'fastify';
import { platformRoutes, ROLE_PERMISSIONS, ServiceMessages } from '@dash/contracts';
import { addRoute, notFound, userOf } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { findProjectByRef, findProjectOf, listProjectsOf } from '../db/projects';
import { projectRoleConnection } from '../projects';

export async function projectRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, platformRoutes.listProjects, async ({ identity }) => ({
    projects: await listProjectsOf(ctx.db, userOf(identity).sub),
  }));

  // A project the caller is not a member of does not exist for them: 404, never 403.
  addRoute(app, platformRoutes.getProject, async ({ identity, params }) => {
    const project = await findProjectOf(ctx.db, userOf(identity).sub, params.ref);
    if (!project) throw notFound(ServiceMessages.projectNotFound);
    return project;
  });

  addRoute(app, platformRoutes.projectPermissions, async ({ identity, params }) => {
    const project = await findProjectOf(ctx.db, userOf(identity).sub, params.ref);
    if (!project) throw notFound(ServiceMessages.projectNotFound);
    return { role: project.role, permissions: [...ROLE_PERMISSIONS[project.role]] };
  });

  addRoute(app, platformRoutes.projectConnection, async ({ params, query }) => {
    const project = await findProjectByRef(ctx.db, params.ref);
    if (!project) throw notFound(ServiceMessages.projectNotFound);
    return { ref: project.ref, connectionString: projectRoleConnection(ctx, project, query.role ?? 'admin') };
  });
}
