import { tableEditorRoutes } from '@dash/contracts';
import { addRoute, type ServiceApp } from '@dash/service-kit';
import { poolRunner, readViews } from '../db/catalog';
import type { PgMetaContext } from '../app';

export function registerViewRoutes(app: ServiceApp, ctx: PgMetaContext): void {
  addRoute(app, tableEditorRoutes.listViews, async ({ params, query }) => readViews(poolRunner(ctx.pools, params.ref), 'view', query));
  addRoute(app, tableEditorRoutes.listMaterializedViews, async ({ params, query }) =>
    readViews(poolRunner(ctx.pools, params.ref), 'materialized_view', query),
  );
  addRoute(app, tableEditorRoutes.listForeignTables, async ({ params, query }) =>
    readViews(poolRunner(ctx.pools, params.ref), 'foreign_table', query),
  );
}
