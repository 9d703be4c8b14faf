import type { FastifyInstance } from 'fastify';
import { DATA_API_USER_TOKEN_TTL_SECONDS, dataApiRoutes, Permission } from '@dash/contracts';
import { addRoute, signJwt } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { memberProject, projectJwtSecret } from '../projects';

/**
 * A short-lived token for one of the project's auth users, so the dashboard (GraphiQL) can call the data API
 * as that user and see what their row-level security lets them see. The claims are those of a user's
 * access token (role `authenticated`, `aud`, `sub`), signed with the project's JWT secret, valid an hour;
 * rotating the secret revokes it with every other token. Members who may mint one can read the
 * service_role key anyway, so the user id is not checked against `auth.users`.
 */
export async function dataApiTokenRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, dataApiRoutes.mintUserToken, async ({ identity, params, body }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminWrite);
    const secret = await projectJwtSecret(ctx, project);
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + DATA_API_USER_TOKEN_TTL_SECONDS;
    const accessToken = signJwt(secret, { iss: 'dash', ref: project.ref, role: 'authenticated', aud: 'authenticated', sub: body.userId, iat, exp });
    return { accessToken, expiresAt: new Date(exp * 1000).toISOString() };
  });
}
