import { baseApi } from '@dash/shell-sdk';
import { routeMutation, routeRequest } from '@dash/shell-sdk/routes';
import { sqlEditorRoutes, type RouteReply } from '@dash/contracts';

type Ref = { ref: string };

/** The project database's active queries (admin only) and aborting one of them. */
export const runningQueriesApi = baseApi.enhanceEndpoints({ addTagTypes: ['RunningQueries'] }).injectEndpoints({
  endpoints: (build) => ({
    runningQueries: build.query<RouteReply<typeof sqlEditorRoutes.listRunningQueries>['queries'], Ref>({
      query: ({ ref }) => routeRequest(sqlEditorRoutes.listRunningQueries, { params: { ref } }),
      transformResponse: (reply: RouteReply<typeof sqlEditorRoutes.listRunningQueries>) => reply.queries,
      providesTags: (_r, _e, { ref }) => [{ type: 'RunningQueries', id: ref }],
    }),
    abortRunningQuery: routeMutation(build, sqlEditorRoutes.abortRunningQuery, {
      invalidatesTags: (_r, _e, { ref }) => [{ type: 'RunningQueries', id: ref }],
    }),
  }),
  overrideExisting: 'throw',
});

export const { useRunningQueriesQuery, useAbortRunningQueryMutation } = runningQueriesApi;
