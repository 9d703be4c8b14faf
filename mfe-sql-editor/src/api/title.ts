import { baseApi } from '@dash/shell-sdk';
import { routeMutation } from '@dash/shell-sdk/routes';
import { sqlEditorRoutes } from '@dash/contracts';

/** A snippet name and description the service derives from the SQL (the rename dialog's Suggest name). */
export const titleApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    suggestSnippetTitle: routeMutation(build, sqlEditorRoutes.suggestTitle),
  }),
  overrideExisting: 'throw',
});

export const { useSuggestSnippetTitleMutation } = titleApi;
