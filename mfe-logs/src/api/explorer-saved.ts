import { baseApi, routeRequest } from '@dash/shell-sdk';
import { savedLogQueryRoutes, type RouteBody, type RouteReply } from '@dash/contracts';

/** The saved list's cache entry of a project (the shell's tag types are fixed: one `Logs` tag per list). */
const savedTag = (ref: string) => ({ type: 'Logs' as const, id: `explorer-saved:${ref}` });

/** The logs explorer's saved queries (hosted only), in the platform's content store. */
export const savedLogQueriesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    savedLogQueries: build.query<RouteReply<typeof savedLogQueryRoutes.list>, { ref: string }>({
      query: ({ ref }) => routeRequest(savedLogQueryRoutes.list, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [savedTag(ref)],
    }),
    createSavedLogQuery: build.mutation<RouteReply<typeof savedLogQueryRoutes.create>, { ref: string } & RouteBody<typeof savedLogQueryRoutes.create>>({
      query: ({ ref, ...body }) => routeRequest(savedLogQueryRoutes.create, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [savedTag(ref)],
    }),
    updateSavedLogQuery: build.mutation<RouteReply<typeof savedLogQueryRoutes.update>, { ref: string; id: string } & RouteBody<typeof savedLogQueryRoutes.update>>({
      query: ({ ref, id, ...body }) => routeRequest(savedLogQueryRoutes.update, { params: { ref, id }, body }),
      invalidatesTags: (_r, _e, { ref }) => [savedTag(ref)],
    }),
    deleteSavedLogQuery: build.mutation<RouteReply<typeof savedLogQueryRoutes.delete>, { ref: string; id: string }>({
      query: ({ ref, id }) => routeRequest(savedLogQueryRoutes.delete, { params: { ref, id } }),
      invalidatesTags: (_r, _e, { ref }) => [savedTag(ref)],
    }),
  }),
});

export const { useSavedLogQueriesQuery, useCreateSavedLogQueryMutation, useUpdateSavedLogQueryMutation, useDeleteSavedLogQueryMutation } = savedLogQueriesApi;
