import { baseApi, routeRequest } from '@dash/shell-sdk';
import { explorerRoutes, type RouteBody, type RouteReply } from '@dash/contracts';

/** The recent list's cache entry of a project (the shell's tag types are fixed: one `Logs` tag per list). */
const recentTag = (ref: string) => ({ type: 'Logs' as const, id: `explorer-recent:${ref}` });

/** The explorer's calls: run a query (which also records it as a recent query) and list the recent ones. */
export const explorerApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    runLogQuery: build.mutation<RouteReply<typeof explorerRoutes.query>, { ref: string } & RouteBody<typeof explorerRoutes.query>>({
      query: ({ ref, ...body }) => routeRequest(explorerRoutes.query, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [recentTag(ref)],
    }),
    recentLogQueries: build.query<RouteReply<typeof explorerRoutes.recent>, { ref: string }>({
      query: ({ ref }) => routeRequest(explorerRoutes.recent, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [recentTag(ref)],
    }),
  }),
});

export const { useRunLogQueryMutation, useRecentLogQueriesQuery } = explorerApi;
