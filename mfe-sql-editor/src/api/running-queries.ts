import { baseApi, routeRequest } from '@dash/shell-sdk';
import { sqlEditorRoutes, type RouteReply } from '@dash/contracts';

type Ref = { ref: string };

/** The project database's active queries (admin only) and aborting one of them. */
export const runningQueriesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    runningQueries: build.query<RouteReply<typeof sqlEditorRoutes.listRunningQueries>['queries'], Ref>({
      query: ({ ref }) => routeRequest(sqlEditorRoutes.listRunningQueries, { params: { ref } }),
      transformResponse: (reply: RouteReply<typeof sqlEditorRoutes.listRunningQueries>) => reply.queries,
      providesTags: (_r, _e, { ref }) => [{ type: 'RunningQueries', id: ref }],
    }),
    abortRunningQuery: build.mutation<RouteReply<typeof sqlEditorRoutes.abortRunningQuery>, Ref & { pid: number }>({
      query: ({ ref, pid }) => routeRequest(sqlEditorRoutes.abortRunningQuery, { params: { ref, pid } }),
      invalidatesTags: (_r, _e, { ref }) => [{ type: 'RunningQueries', id: ref }],
    }),
  }),
});

export const { useRunningQueriesQuery, useAbortRunningQueryMutation } = runningQueriesApi;
