import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { explorerRoutes } from '@dash/contracts';

/** The recent list's cache entry of a project (the shell's tag types are fixed: one `Logs` tag per list). */
const recentTag = (ref: string) => ({ type: 'Logs' as const, id: `explorer-recent:${ref}` });

/** The explorer's calls: run a query (which also records it as a recent query) and list the recent ones. */
export const explorerApi = baseApi.enhanceEndpoints({ addTagTypes: ['Logs'] }).injectEndpoints({
  endpoints: (build) => ({
    runLogQuery: routeMutation(build, explorerRoutes.query, { invalidatesTags: (_r, _e, { ref }) => [recentTag(ref)] }),
    recentLogQueries: routeQuery(build, explorerRoutes.recent, { providesTags: (_r, _e, { ref }) => [recentTag(ref)] }),
  }),
  overrideExisting: 'throw',
});

export const { useRunLogQueryMutation, useRecentLogQueriesQuery } = explorerApi;
