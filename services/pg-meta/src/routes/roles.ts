import type { FastifyInstance } from 'fastify';
import { Messages, rolesRoutes, type PgRole } from '@dash/contracts';
import { addRoute, notFound, projectQuery } from '@dash/service-kit';
import { listRolesQuery } from '../sql/catalog/roles';
import { findRoleQuery } from '../sql/roles-write';
import type { PgMetaContext } from '../app';

export async function roleRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, rolesRoutes.listRoles, async ({ params, query }) => projectQuery<PgRole>(ctx.pools, params.ref, listRolesQuery(query)));

  addRoute(app, rolesRoutes.getRole, async ({ params }) => {
    const [role] = await projectQuery<PgRole>(ctx.pools, params.ref, findRoleQuery({ id: params.id }));
    if (!role) throw notFound(Messages.roleNotFound(params.id));
    return role;
  });
}
