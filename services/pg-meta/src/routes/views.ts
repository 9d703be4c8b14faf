import type { FastifyInstance } from 'fastify';
import { tableEditorRoutes } from '@dash/contracts';
import { addRoute, notFound } from '@dash/service-kit';
import { poolRunner, readViews, type CatalogRunner } from '../db/catalog';
import type { ViewKind } from '../sql/catalog/views';
import type { PgMetaContext } from '../app';

const NOT_FOUND: Record<ViewKind, (id: number) => string> = {
  view: (id) => `Cannot find a view with ID ${id}`,
  materialized_view: (id) => `Cannot find a materialized view with ID ${id}`,
  foreign_table: (id) => `Cannot find a foreign table with ID ${id}`,
};

/** One view, materialized view or foreign table by id, with its columns, in any schema; 404 when there is none. */
async function readView<K extends ViewKind>(run: CatalogRunner, kind: K, id: number) {
  const [view] = await readViews(run, kind, { ids: [id], include_system_schemas: true, include_columns: true });
  if (!view) throw notFound(NOT_FOUND[kind](id));
  return view;
}

export async function viewRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, tableEditorRoutes.listViews, async ({ params, query }) => readViews(poolRunner(ctx.pools, params.ref), 'view', query));
  addRoute(app, tableEditorRoutes.listMaterializedViews, async ({ params, query }) =>
    readViews(poolRunner(ctx.pools, params.ref), 'materialized_view', query),
  );
  addRoute(app, tableEditorRoutes.listForeignTables, async ({ params, query }) =>
    readViews(poolRunner(ctx.pools, params.ref), 'foreign_table', query),
  );
  addRoute(app, tableEditorRoutes.getView, async ({ params }) => readView(poolRunner(ctx.pools, params.ref), 'view', params.id));
  addRoute(app, tableEditorRoutes.getMaterializedView, async ({ params }) =>
    readView(poolRunner(ctx.pools, params.ref), 'materialized_view', params.id),
  );
  addRoute(app, tableEditorRoutes.getForeignTable, async ({ params }) => readView(poolRunner(ctx.pools, params.ref), 'foreign_table', params.id));
}
