import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation, routeRequest } from '@dash/shell-sdk/routes';
import { gatewayPath, sqlEditorRoutes, type QueryPlan, type QueryRun, type SqlRunAs } from '@dash/contracts';

/**
 * What a run may have changed outside the editor: the completion catalog and the other areas' catalog
 * lists and rows. Marked stale after a run whose statements were not all SELECT (DDL, writes, grants…).
 */
const TOUCHED_BY_WRITES = ['Completions', 'Schemas', 'Entities', 'Tables', 'Columns', 'Rows', 'Policies', 'Roles'] as const;

/** True when every statement of the run was a SELECT (nothing in the catalog can have changed). */
export function onlySelects(run: Pick<QueryRun, 'results'>): boolean {
  return run.results.every((r) => r.command.toUpperCase() === 'SELECT');
}

/**
 * The SQL editor workbench's calls: run (with the run id the browser chose), cancel that run, explain,
 * step one of an export, and the completion catalog. The workbench dispatches the mutations with
 * `track: false`, so a 100,000-row result is kept by the component only, not in the store as well.
 */
export const sqlRunApi = baseApi.enhanceEndpoints({ addTagTypes: ['Columns', 'Completions', 'Entities', 'Policies', 'Roles', 'Rows', 'Schemas', 'Tables'] }).injectEndpoints({
  endpoints: (build) => ({
    sqlRun: routeMutation(build, sqlEditorRoutes.run, { invalidatesTags: (result) => (result && !onlySelects(result) ? [...TOUCHED_BY_WRITES] : []) }),
    sqlCancelRun: routeMutation(build, sqlEditorRoutes.cancel),
    // EXPLAIN ANALYZE runs the statement, but in a transaction that is always rolled back: nothing to refresh.
    // By hand: the route's schema leaves the plan tree `unknown`; `QueryPlan` types it.
    sqlExplain: build.mutation<QueryPlan, { ref: string; query: string; analyze: boolean; runAs?: SqlRunAs }>({
      query: ({ ref, ...body }) => routeRequest(sqlEditorRoutes.explain, { params: { ref }, body }),
    }),
    sqlPrepareExport: routeMutation(build, sqlEditorRoutes.prepareExport),
    sqlCompletions: routeQuery(build, sqlEditorRoutes.completions, { providesTags: (_r, _e, { ref }) => [{ type: 'Completions', id: ref }] }),
  }),
  overrideExisting: 'throw',
});

export const { useSqlCompletionsQuery } = sqlRunApi;

/** Step two of an export: the path the browser navigates to, so the download streams to disk. */
export function sqlExportDownloadPath(ref: string, token: string): string {
  return gatewayPath(sqlEditorRoutes.downloadExport, { ref, token });
}
