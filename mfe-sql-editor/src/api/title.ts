import { baseApi } from '@dash/shell-sdk';
import { routeRequest } from '@dash/shell-sdk/routes';
import { sqlEditorRoutes, type RouteReply } from '@dash/contracts';

/** A snippet name and description the service derives from the SQL (the rename dialog's Suggest name). */
export const titleApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    suggestSnippetTitle: build.mutation<RouteReply<typeof sqlEditorRoutes.suggestTitle>, { ref: string; sql: string }>({
      query: ({ ref, sql }) => routeRequest(sqlEditorRoutes.suggestTitle, { params: { ref }, body: { sql } }),
    }),
  }),
  overrideExisting: 'throw',
});

export const { useSuggestSnippetTitleMutation } = titleApi;
