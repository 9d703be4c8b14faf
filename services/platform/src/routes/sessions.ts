import type { FastifyInstance } from 'fastify';
import { platformRoutes, ServiceMessages } from '@dash/contracts';
import { addRoute, unauthorized } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { projectRolesOf } from '../db/projects';
import { findSessionUser } from '../db/sessions';
import { toUser } from '../db/users';

/** Internal: the gateway turns a session cookie into a user and their role per project. */
export async function sessionRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, platformRoutes.resolveSession, async ({ body }) => {
    const user = await findSessionUser(ctx.db, body.token);
    if (!user) throw unauthorized(ServiceMessages.signInRequired);
    return { user: toUser(user), projects: await projectRolesOf(ctx.db, user.id) };
  });
}
