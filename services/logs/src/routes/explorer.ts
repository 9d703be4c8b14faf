import type { FastifyInstance } from 'fastify';
import { explorerRoutes, LOG_EXPLORER_MAX_ROWS, LOG_EXPLORER_STATEMENT_TIMEOUT_MS, resolveLogTimeRange } from '@dash/contracts';
import { addRoute, badRequest, HttpError, userOf } from '@dash/service-kit';
import { guardExplorerSql, loadExplorerParser } from '../sql/explorer-guard';
import { runExplorerQuery } from '../db/explorer-run';
import { listRecentQueries, recordRecentQuery } from '../db/explorer-recent';
import type { LogsContext } from '../app';

/** The logs explorer: a guarded SELECT over the project's log tables, and the caller's recent queries. */
export async function explorerRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: LogsContext }): Promise<void> {
  addRoute(app, explorerRoutes.query, async ({ params, body, identity }) => {
    const user = userOf(identity);
    const range = resolveLogTimeRange(body.range);
    if ('error' in range) throw badRequest(range.error);
    await loadExplorerParser();
    const guard = guardExplorerSql(body.sql);
    if (!guard.ok) throw new HttpError(400, guard.message, undefined, guard.position ? { position: guard.position } : undefined);
    // A query that passed the guard runs, so it is a recent one (whatever Postgres says of it); recorded
    // beside the run, on another connection, so the run does not wait for it.
    const recorded = recordRecentQuery(ctx.pool, user.sub, params.ref, body.sql);
    const run = runExplorerQuery(ctx.pool, {
      ref: params.ref,
      statement: guard.statement,
      offset: guard.offset,
      from: range.from,
      to: range.to,
      tables: guard.tables,
      histogram: body.histogram ?? true,
      maxRows: LOG_EXPLORER_MAX_ROWS,
      statementTimeoutMs: LOG_EXPLORER_STATEMENT_TIMEOUT_MS,
    });
    const [result] = await Promise.all([run, recorded]);
    return result;
  });

  addRoute(app, explorerRoutes.recent, async ({ params, identity }) => ({
    queries: await listRecentQueries(ctx.pool, userOf(identity).sub, params.ref),
  }));
}
