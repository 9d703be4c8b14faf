import { baseApi } from '@dash/shell-sdk';
import { routeQuery } from '@dash/shell-sdk/routes';
import { contentRoutes, sqlEditorRoutes } from '@dash/contracts';

type Ref = { ref: string };

/**
 * What a custom report's blocks show: the project's saved SQL snippets (the SQL editor's content store)
 * and a snippet's result, run through the SQL editor's run route as the member's role, read-only.
 */
export const reportBlocksApi = baseApi.enhanceEndpoints({ addTagTypes: ['Snippets'] }).injectEndpoints({
  endpoints: (build) => ({
    reportSnippets: routeQuery(build, contentRoutes.listSnippets, {
      transformResponse: (reply) => reply.data,
      providesTags: (_r, _e, { ref }) => [{ type: 'Snippets', id: `${ref}:list` }],
    }),
    /** Keyed by the SQL, so two blocks of one snippet share one run. */
    reportBlockResult: routeQuery(build, sqlEditorRoutes.run, {
      parts: ({ ref, sql }: Ref & { sql: string }) => ({ params: { ref }, body: { query: sql, readOnly: true } }),
    }),
  }),
  overrideExisting: 'throw',
});

export const { useReportSnippetsQuery, useReportBlockResultQuery } = reportBlocksApi;
