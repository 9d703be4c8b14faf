import { pgMetaRoutes, type PgPolicy } from '@dash/contracts';
import { addRoute, type ServiceApp } from '@dash/service-kit';
import { catalogQuery } from '../db/project-db';
import { listPoliciesQuery } from '../sql/policies';
import type { PgMetaContext } from '../app';

export function registerPolicyRoutes(app: ServiceApp, ctx: PgMetaContext): void {
  addRoute(app, pgMetaRoutes.listPolicies, async ({ params, query }) =>
    catalogQuery<PgPolicy>(ctx.pools, params.ref, listPoliciesQuery(query)),
  );
}
