import { pgMetaRoutes, type PgTable } from '@dash/contracts';
import { addRoute, type ServiceApp } from '@dash/service-kit';
import { catalogQuery } from '../db/project-db';
import { listTablesQuery } from '../sql/tables';
import type { PgMetaContext } from '../app';

export function registerTableRoutes(app: ServiceApp, ctx: PgMetaContext): void {
  addRoute(app, pgMetaRoutes.listTables, async ({ params, query }) =>
    catalogQuery<PgTable>(ctx.pools, params.ref, listTablesQuery(query)),
  );
}
