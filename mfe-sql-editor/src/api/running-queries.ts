import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { sqlEditorRoutes } from '@dash/contracts';

/** The project database's active queries (admin only) and aborting one of them. */
export const runningQueriesApi = baseApi.enhanceEndpoints({ addTagTypes: ['RunningQueries'] }).injectEndpoints({
  endpoints: (build) => ({
    runningQueries: routeQuery(build, sqlEditorRoutes.listRunningQueries, {
      transformResponse: (reply) => reply.queries,
      providesTags: (_r, _e, { ref }) => [{ type: 'RunningQueries', id: ref }],
    }),
    abortRunningQuery: routeMutation(build, sqlEditorRoutes.abortRunningQuery, {
      invalidatesTags: (_r, _e, { ref }) => [{ type: 'RunningQueries', id: ref }],
    }),
  }),
  overrideExisting: 'throw',
});

export const { useRunningQueriesQuery, useAbortRunningQueryMutation } = runningQueriesApi;
