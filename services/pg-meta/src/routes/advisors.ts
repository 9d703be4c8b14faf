import type { FastifyInstance } from 'fastify';
import { advisorRoutes, EXPOSED_SCHEMAS, LINT_LEVELS, PROTECTED_SCHEMAS, QUERY_PERFORMANCE_ROWS, type Lint } from '@dash/contracts';
import { addRoute, conflict, projectDbError, projectTransaction } from '@dash/service-kit';
import type pg from 'pg';
import { lintQueries, type LintInput } from '../sql/lints';
import { canResetStatementsQuery, resetStatementsQuery, statStatementsStateQuery } from '../sql/reports';
import { DATABASE_REPORT_TIMEOUT_MS, readStatements } from './reports';
import type { PgMetaContext } from '../app';

/** What the lints treat as exposed and leave alone; the API roles are the ones every app's keys name. */
export const LINT_INPUT: LintInput = { exposedSchemas: EXPOSED_SCHEMAS, protectedSchemas: PROTECTED_SCHEMAS, apiRoles: ['anon', 'authenticated'] };

export const resetMessages = {
  notLoaded: 'pg_stat_statements is not loaded by the Postgres server, so there are no statistics to reset',
  notInstalled: 'pg_stat_statements is not created in this database, so there are no statistics to reset',
  noFunction:
    "This project's database has no reset function yet (extensions.dash_reset_statements, made by the project bootstrap): the server's superuser can run the bootstrap again to add it",
};

/** Statistics and catalog reads only: a read-only transaction with the reports' time limit. */
async function readOnly<T>(ctx: PgMetaContext, ref: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  try {
    return await projectTransaction(ctx.pools, ref, null, async (client) => {
      await client.query('set transaction read only');
      await client.query(`select set_config('statement_timeout', $1, true)`, [String(DATABASE_REPORT_TIMEOUT_MS)]);
      return work(client);
    });
  } catch (error) {
    throw projectDbError(error);
  }
}

/**
 * Lints (most severe first, in the lints' order within a level) and query performance, read as the project
 * admin role; the reset goes through the bootstrap's function, for this database only.
 */
export async function advisorRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, advisorRoutes.lints, async ({ params }) =>
    readOnly(ctx, params.ref, async (client) => {
      const found: Lint[] = [];
      for (const query of lintQueries(LINT_INPUT)) found.push(...(await client.query<Lint>(query)).rows);
      return found.sort((a, b) => LINT_LEVELS.indexOf(a.level) - LINT_LEVELS.indexOf(b.level));
    }),
  );

  addRoute(app, advisorRoutes.queryPerformance, async ({ params, query }) =>
    readOnly(ctx, params.ref, (client) => readStatements(client, query.order ?? 'total', QUERY_PERFORMANCE_ROWS)),
  );

  addRoute(app, advisorRoutes.resetQueryPerformance, async ({ params }) => {
    try {
      return await projectTransaction(ctx.pools, params.ref, null, async (client) => {
        const state = (await client.query<{ loaded: boolean; schema: string | null }>(statStatementsStateQuery())).rows[0]!;
        if (!state.loaded) throw conflict(resetMessages.notLoaded);
        if (state.schema === null) throw conflict(resetMessages.notInstalled);
        if (!(await client.query<{ can_reset: boolean }>(canResetStatementsQuery())).rows[0]!.can_reset) throw conflict(resetMessages.noFunction);
        await client.query(resetStatementsQuery());
        return { ok: true as const };
      });
    } catch (error) {
      throw projectDbError(error);
    }
  });
}
