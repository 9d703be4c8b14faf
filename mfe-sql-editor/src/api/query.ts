import { baseApi, routeRequest } from '@dash/shell-sdk';
import { pgMetaRoutes, type RouteReply } from '@dash/contracts';

export type QueryReply = RouteReply<typeof pgMetaRoutes.runQuery>;

/**
 * Runs the editor's SQL (the service requires tenant_sql_query). A statement that may have changed the
 * catalog (anything but SELECT) marks the catalog lists of every area stale.
 */
export const sqlQueryApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    sqlRunQuery: build.mutation<QueryReply, { ref: string; query: string }>({
      query: ({ ref, query }) => routeRequest(pgMetaRoutes.runQuery, { params: { ref }, body: { query } }),
      invalidatesTags: (result) =>
        result && result.command.toUpperCase() !== 'SELECT' ? ['Schemas', 'Entities', 'Tables', 'Policies'] : [],
    }),
  }),
});

export const { useSqlRunQueryMutation } = sqlQueryApi;
