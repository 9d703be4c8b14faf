import type { FastifyInstance } from 'fastify';
import { tableEditorRoutes } from '@dash/contracts';
import { addRoute } from '@dash/service-kit';
import { countRows, deleteRows, insertRow, loadFullValue, selectRows, truncateTable, updateRow } from '../db/rows';
import type { PgMetaContext } from '../app';

/** The table editor's rows: read, count, full values, insert, update, delete and truncate. */
export async function rowRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  const r = tableEditorRoutes;
  addRoute(app, r.selectRows, ({ params, body }) => selectRows(ctx.pools, params.ref, params.id, body));
  addRoute(app, r.countRows, ({ params, body }) => countRows(ctx.pools, params.ref, params.id, body));
  addRoute(app, r.loadFullValue, ({ params, body }) => loadFullValue(ctx.pools, params.ref, params.id, body));
  addRoute(app, r.insertRow, ({ params, body }) => insertRow(ctx.pools, params.ref, params.id, body));
  addRoute(app, r.updateRow, ({ params, body }) => updateRow(ctx.pools, params.ref, params.id, body));
  addRoute(app, r.deleteRows, ({ params, body }) => deleteRows(ctx.pools, params.ref, params.id, body));
  addRoute(app, r.truncateTable, ({ params }) => truncateTable(ctx.pools, params.ref, params.id));
}
