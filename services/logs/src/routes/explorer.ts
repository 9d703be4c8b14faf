import type { FastifyInstance } from 'fastify';
import {
  ExplorerMessages,
  explorerRoutes,
  LOG_EXPLORER_MAX_ROWS,
  LOG_EXPLORER_MAX_RUNS_PER_MEMBER,
  LOG_EXPLORER_STATEMENT_TIMEOUT_MS,
  resolveLogTimeRange,
} from '@dash/contracts';
import { addRoute, badRequest, HttpError, userOf } from '@dash/service-kit';
import { guardExplorerSql, loadExplorerParser } from '../sql/explorer-guard';
import { runExplorerQuery } from '../db/explorer-run';
import { listRecentQueries, recordRecentQuery } from '../db/explorer-recent';
import type { LogsContext } from '../app';

/**
 * The logs explorer: a guarded SELECT over the project's log tables, and the caller's recent queries.
 * Queries run on the explorer's own pool, at most `LOG_EXPLORER_MAX_RUNS_PER_MEMBER` per member at once
 * (counted in this process): a member cannot queue up the pool's few connections and keep the others'
 * queries waiting.
 */
export async function explorerRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: LogsContext }): Promise<void> {
  const running = new Map<string, number>();
  addRoute(app, explorerRoutes.query, async ({ params, body, identity }) => {
    const user = userOf(identity);
    const range = resolveLogTimeRange(body.range);
    if ('error' in range) throw badRequest(range.error);
    await loadExplorerParser();
    const guard = guardExplorerSql(body.sql);
    if (!guard.ok) throw new HttpError(400, guard.message, undefined, guard.position ? { position: guard.position } : undefined);
    const runs = running.get(user.sub) ?? 0;
    if (runs >= LOG_EXPLORER_MAX_RUNS_PER_MEMBER) throw new HttpError(429, ExplorerMessages.tooManyRuns);
    running.set(user.sub, runs + 1);
    // A query that passed the guard runs, so it is a recent one (whatever Postgres says of it); recorded
    // beside the run, on the service's pool, so the run does not wait for it.
    const recorded = recordRecentQuery(ctx.pool, user.sub, params.ref, body.sql);
    const run = runExplorerQuery(ctx.explorerPool, {
      ref: params.ref,
      statement: guard.statement,
      offset: guard.offset,
      from: range.from,
      to: range.to,
      tables: guard.tables,
      histogram: body.histogram ?? true,
      maxRows: LOG_EXPLORER_MAX_ROWS,
      statementTimeoutMs: LOG_EXPLORER_STATEMENT_TIMEOUT_MS,
    }).finally(() => {
      const left = running.get(user.sub)! - 1;
      if (left === 0) running.delete(user.sub);
      else running.set(user.sub, left);
    });
    const [result] = await Promise.all([run, recorded]);
    return result;
  });

  addRoute(app, explorerRoutes.recent, async ({ params, identity }) => ({
    queries: await listRecentQueries(ctx.pool, userOf(identity).sub, params.ref),
  }));
}
