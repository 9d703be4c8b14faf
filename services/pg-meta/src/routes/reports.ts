import type { FastifyInstance } from 'fastify';
import { reportRoutes, type DatabaseReport, type QueryPerformanceOrder, type StatementsState } from '@dash/contracts';
import { addRoute, projectDbError, projectTransaction } from '@dash/service-kit';
import type pg from 'pg';
import {
  connectionsByStateQuery,
  databaseOverviewQuery,
  largestTablesQuery,
  slowestStatementsQuery,
  statStatementsStateQuery,
} from '../sql/reports';
import type { PgMetaContext } from '../app';

/** The report's statements read statistics only; this bounds them on a database under load. */
export const DATABASE_REPORT_TIMEOUT_MS = 15_000;

// pg returns int8 as strings; sizes and counts here stay far below 2^53.
const n = (v: unknown): number => Number(v);
const ratio = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * pg_stat_statements' state and, when it counts, this database's statements by mean (the report) or
 * total time (query performance).
 */
export async function readStatements(client: pg.PoolClient, order?: QueryPerformanceOrder, limit?: number): Promise<StatementsState> {
  const state = (await client.query<{ loaded: boolean; schema: string | null; scoped: boolean }>(statStatementsStateQuery())).rows[0]!;
  if (!state.loaded) return { state: 'not_loaded' };
  if (state.schema === null) return { state: 'not_installed' };
  const { rows } = await client.query(slowestStatementsQuery(state.schema, order, limit, state.scoped));
  return {
    state: 'ready',
    statements: rows.map((r) => ({ query: r.query, role: r.role, calls: n(r.calls), total_ms: n(r.total_ms), mean_ms: n(r.mean_ms), max_ms: n(r.max_ms), rows: n(r.rows) })),
  };
}

/**
 * The built-in database report: one read-only transaction of fixed statements on the project database,
 * as the project admin role (never a superuser), with a statement timeout.
 */
export async function reportRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, reportRoutes.database, async ({ params }) => {
    try {
      return await projectTransaction(ctx.pools, params.ref, null, async (client): Promise<DatabaseReport> => {
        await client.query('set transaction read only');
        await client.query(`select set_config('statement_timeout', $1, true)`, [String(DATABASE_REPORT_TIMEOUT_MS)]);
        const overview = (await client.query(databaseOverviewQuery())).rows[0]!;
        const connections = (await client.query(connectionsByStateQuery())).rows;
        const tables = (await client.query(largestTablesQuery())).rows;
        return {
          database_size_bytes: n(overview.database_size_bytes),
          max_connections: n(overview.max_connections),
          connections: connections.map((r) => ({ state: r.state, count: n(r.count) })),
          cache_hit_ratio: { tables: ratio(overview.tables_hit), indexes: ratio(overview.indexes_hit) },
          largest_tables: tables.map((r) => ({
            schema: r.schema,
            name: r.name,
            total_bytes: n(r.total_bytes),
            table_bytes: n(r.table_bytes),
            index_bytes: n(r.index_bytes),
            row_estimate: n(r.row_estimate),
          })),
          statements: await readStatements(client),
        };
      });
    } catch (error) {
      throw projectDbError(error);
    }
  });
}
