import { rolesRoutes, type PgRole } from '@dash/contracts';
import { addRoute, type ServiceApp, projectQuery } from '@dash/service-kit';
import { listRolesQuery } from '../sql/catalog/roles';
import type { PgMetaContext } from '../app';

export function registerRoleRoutes(app: ServiceApp, ctx: PgMetaContext): void {
  addRoute(app, rolesRoutes.listRoles, async ({ params, query }) => projectQuery<PgRole>(ctx.pools, params.ref, listRolesQuery(query)));
}
