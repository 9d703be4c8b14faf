import { pgMetaRoutes } from '@dash/contracts';
import { addRoute, type ServiceApp, connectProject } from '@dash/service-kit';
import { checkEditorText, runEditorQuery } from '../db/editor';
import type { PgMetaContext } from '../app';

/** The SQL editor: the one route that runs the caller's SQL as written, within limits. */
export function registerQueryRoutes(app: ServiceApp, ctx: PgMetaContext): void {
  addRoute(app, pgMetaRoutes.runQuery, async ({ params, body }) => {
    checkEditorText(body.query);
    const client = await connectProject(ctx.pools, params.ref);
    return runEditorQuery(client, body.query, {
      statementTimeoutMs: ctx.sqlEditor.statementTimeoutMs,
      maxRows: ctx.sqlEditor.maxRows,
    });
  });
}
