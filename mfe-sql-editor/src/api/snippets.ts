import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { contentRoutes, type RouteBody, type SqlSnippet } from '@dash/contracts';

type Ref = { ref: string };
type SnippetArg = Ref & { id: string };

const listTag = (ref: string) => ({ type: 'Snippets' as const, id: `${ref}:list` });
const snippetTag = (ref: string, id: string) => ({ type: 'Snippets' as const, id: `${ref}:${id}` });
const versionsTag = (ref: string, id: string) => ({ type: 'Snippets' as const, id: `${ref}:${id}:versions` });

/**
 * The project's SQL snippets in the platform's content store. Writes put their reply into the cached
 * list and the cached snippet instead of refetching, so an autosave every second costs one request.
 */
export const snippetsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Snippets'] }).injectEndpoints({
  endpoints: (build) => ({
    listSnippets: routeQuery(build, contentRoutes.listSnippets, { transformResponse: (reply) => reply.data, providesTags: (_r, _e, { ref }) => [listTag(ref)] }),
    getSnippet: routeQuery(build, contentRoutes.getSnippet, { providesTags: (_r, _e, { ref, id }) => [snippetTag(ref, id)] }),
    createSnippet: routeMutation(build, contentRoutes.createSnippet, {
      parts: ({ ref, body }: Ref & { body: RouteBody<typeof contentRoutes.createSnippet> }) => ({ params: { ref }, body }),
      onQueryStarted: async ({ ref }, { dispatch, queryFulfilled }) => {
        storeReply(ref, await reply(queryFulfilled), dispatch);
      },
    }),
    updateSnippet: routeMutation(build, contentRoutes.updateSnippet, {
      parts: ({ ref, id, body }: SnippetArg & { body: RouteBody<typeof contentRoutes.updateSnippet> }) => ({ params: { ref, id }, body }),
      onQueryStarted: async ({ ref }, { dispatch, queryFulfilled }) => {
        storeReply(ref, await reply(queryFulfilled), dispatch);
      },
      invalidatesTags: (_r, _e, { ref, id }) => [versionsTag(ref, id)],
    }),
    shareSnippet: routeMutation(build, contentRoutes.shareSnippet, {
      onQueryStarted: async ({ ref }, { dispatch, queryFulfilled }) => {
        storeReply(ref, await reply(queryFulfilled), dispatch);
      },
    }),
    /** `newId`: the copy's id, chosen by the browser like a create's. */
    duplicateSnippet: routeMutation(build, contentRoutes.duplicateSnippet, {
      parts: ({ ref, id, newId }: SnippetArg & { newId: string }) => ({ params: { ref, id }, body: { id: newId } }),
      onQueryStarted: async ({ ref }, { dispatch, queryFulfilled }) => {
        storeReply(ref, await reply(queryFulfilled), dispatch);
      },
    }),
    deleteSnippets: routeMutation(build, contentRoutes.deleteSnippets, {
      onQueryStarted: async ({ ref, ids }, { dispatch, queryFulfilled }) => {
        if (await reply(queryFulfilled)) dispatch(removeSnippetsLocally(ref, ids));
      },
    }),
    listSnippetVersions: routeQuery(build, contentRoutes.listSnippetVersions, {
      transformResponse: (reply) => reply.versions,
      providesTags: (_r, _e, { ref, id }) => [versionsTag(ref, id)],
    }),
  }),
  overrideExisting: 'throw',
});

/** The reply of a write, or null when it failed (the caller of the mutation handles the error). */
async function reply<T>(fulfilled: Promise<{ data: T }>): Promise<T | null> {
  try {
    return (await fulfilled).data;
  } catch {
    return null;
  }
}

/** A snippet as the service now has it: in the cached list (replaced, or added first) and as the cached snippet. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function storeReply(ref: string, snippet: SqlSnippet | null, dispatch: ThunkDispatch<any, any, UnknownAction>) {
  if (!snippet) return;
  dispatch(
    snippetsApi.util.updateQueryData('listSnippets', { ref }, (list) => {
      const at = list.findIndex((s) => s.id === snippet.id);
      if (at >= 0) list[at] = snippet;
      else list.unshift(snippet);
    }),
  );
  void dispatch(snippetsApi.util.upsertQueryData('getSnippet', { ref, id: snippet.id }, snippet));
}

/** Drops snippets from the cached list: after a delete, or a delete the service answered "not found". */
export function removeSnippetsLocally(ref: string, ids: readonly string[]) {
  return snippetsApi.util.updateQueryData('listSnippets', { ref }, (list) => list.filter((s) => !ids.includes(s.id)));
}

export const {
  useListSnippetsQuery,
  useGetSnippetQuery,
  useCreateSnippetMutation,
  useUpdateSnippetMutation,
  useShareSnippetMutation,
  useDuplicateSnippetMutation,
  useDeleteSnippetsMutation,
  useListSnippetVersionsQuery,
} = snippetsApi;
