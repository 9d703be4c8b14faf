import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { savedLogQueryRoutes } from '@dash/contracts';

/** The saved list's cache entry of a project (the shell's tag types are fixed: one `Logs` tag per list). */
const savedTag = (ref: string) => ({ type: 'Logs' as const, id: `explorer-saved:${ref}` });

/** The logs explorer's saved queries (hosted only), in the platform's content store. */
export const savedLogQueriesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Logs'] }).injectEndpoints({
  endpoints: (build) => ({
    savedLogQueries: routeQuery(build, savedLogQueryRoutes.list, { providesTags: (_r, _e, { ref }) => [savedTag(ref)] }),
    createSavedLogQuery: routeMutation(build, savedLogQueryRoutes.create, { invalidatesTags: (_r, _e, { ref }) => [savedTag(ref)] }),
    updateSavedLogQuery: routeMutation(build, savedLogQueryRoutes.update, { invalidatesTags: (_r, _e, { ref }) => [savedTag(ref)] }),
    deleteSavedLogQuery: routeMutation(build, savedLogQueryRoutes.delete, { invalidatesTags: (_r, _e, { ref }) => [savedTag(ref)] }),
  }),
  overrideExisting: 'throw',
});

export const { useSavedLogQueriesQuery, useCreateSavedLogQueryMutation, useUpdateSavedLogQueryMutation, useDeleteSavedLogQueryMutation } = savedLogQueriesApi;
