import type { FastifyInstance } from 'fastify';
import { sqlEditorRoutes, type CompletionCatalog, type RunningQuery } from '@dash/contracts';
import { addRoute, forbidden, isStatementError, notFound, projectDbError, projectQuery, SqlState, type SqlQuery } from '@dash/service-kit';
import { completionFunctionsQuery, completionRelationsQuery, completionSchemasQuery } from '../sql/completions';
import { listRunningQueriesQuery, terminateBackendQuery } from '../sql/running-queries';
import { suggestTitle } from '../sql/sql-title';
import type { PgMetaContext } from '../app';

export const SqlCatalogMessages = {
  noRunningQuery: (pid: number) => `No running query with pid ${pid}`,
} as const;

/**
 * A Postgres refusal (ending a backend of a role one is not a member of) is a 403 with Postgres's own
 * message; other failures map as everywhere else.
 */
function catalogError(error: unknown): unknown {
  if (isStatementError(error) && error.code === SqlState.InsufficientPrivilege) return forbidden(error.message);
  return projectDbError(error);
}

/** One of our catalog queries on the project database, as the project admin role. */
async function query<T extends Record<string, unknown>>(ctx: PgMetaContext, ref: string, sql: SqlQuery): Promise<T[]> {
  try {
    return await projectQuery<T>(ctx.pools, ref, sql);
  } catch (error) {
    throw catalogError(error);
  }
}

type RelationRow = CompletionCatalog['relations'][number] & Record<string, unknown>;
type FunctionRow = CompletionCatalog['functions'][number] & Record<string, unknown>;
type RunningRow = { pid: number; query: string; query_start: Date | string };

const isoTimestamp = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/**
 * The SQL editor's helpers around the text: the completion catalog, a snippet name suggested from the
 * parsed SQL (locally, nothing runs), and the project database's running queries with Abort.
 */
export async function sqlCatalogRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, sqlEditorRoutes.completions, async ({ params }) => {
    const [schemas, relations, functions] = await Promise.all([
      query<{ name: string }>(ctx, params.ref, completionSchemasQuery()),
      query<RelationRow>(ctx, params.ref, completionRelationsQuery()),
      query<FunctionRow>(ctx, params.ref, completionFunctionsQuery()),
    ]);
    return {
      schemas: schemas.map((s) => s.name),
      relations: relations.map((r) => ({ schema: r.schema, name: r.name, kind: r.kind, columns: r.columns })),
      functions: functions.map((f) => ({ schema: f.schema, name: f.name, args: f.args, returns: f.returns })),
    };
  });

  addRoute(app, sqlEditorRoutes.suggestTitle, async ({ body }) => suggestTitle(body.sql));

  addRoute(app, sqlEditorRoutes.listRunningQueries, async ({ params }) => {
    const rows = await query<RunningRow>(ctx, params.ref, listRunningQueriesQuery());
    const queries: RunningQuery[] = rows.map((r) => ({ pid: r.pid, query: r.query, query_start: isoTimestamp(r.query_start) }));
    return { queries };
  });

  // Only a backend of the project's own database, checked in the same statement that ends it. Postgres
  // decides whether this role may end it (its own and its member roles' backends): a refusal is a 403.
  addRoute(app, sqlEditorRoutes.abortRunningQuery, async ({ params }) => {
    const [row] = await query<{ pid: number; terminated: boolean }>(ctx, params.ref, terminateBackendQuery(params.pid));
    if (!row || !row.terminated) throw notFound(SqlCatalogMessages.noRunningQuery(params.pid));
    return { ok: true as const };
  });
}
