import type { FastifyInstance } from 'fastify';
import { AccountMessages, platformRoutes, ServiceMessages } from '@dash/contracts';
import { addRoute, unauthorized } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { findAccessTokenUser } from '../db/access-tokens';
import { assuranceOf } from '../db/mfa';
import { projectRolesOf } from '../db/projects';
import { findSessionUser } from '../db/sessions';
import { toUser } from '../db/users';

/**
 * Internal: the gateway turns a session cookie or a personal access token into a user, their role per
 * project and the assurance level. A token counts as aal2: it is a credential of its own, made in a
 * session that had reached its user's level (the gateway refuses every other route before that).
 */
export async function sessionRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, platformRoutes.resolveSession, async ({ body }) => {
    if (body.kind === 'access_token') {
      const user = await findAccessTokenUser(ctx.db, body.token);
      if (!user) throw unauthorized(AccountMessages.invalidAccessToken);
      // The gateway resolves a token again only when its cache entry expires: one event per burst of use.
      ctx.authLogs.record({ action: 'token_used', status: 200, user: { id: user.id, email: user.email }, ip: null, message: 'Access token used' });
      return { user: toUser(user), projects: await projectRolesOf(ctx.db, user.id), ...(await assuranceOf(ctx.db, user.id, 'aal2')) };
    }
    const user = await findSessionUser(ctx.db, body.token);
    if (!user) throw unauthorized(ServiceMessages.signInRequired);
    return { user: toUser(user), projects: await projectRolesOf(ctx.db, user.id), ...(await assuranceOf(ctx.db, user.id, user.aal)) };
  });
}
