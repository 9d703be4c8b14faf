import { baseApi } from '@dash/shell-sdk';
import { routeRequest } from '@dash/shell-sdk/routes';
import { contentRoutes, sqlEditorRoutes, type QueryRun, type RouteReply, type SqlSnippet } from '@dash/contracts';

type Ref = { ref: string };

/**
 * What a custom report's blocks show: the project's saved SQL snippets (the SQL editor's content store)
 * and a snippet's result, run through the SQL editor's run route as the member's role, read-only.
 */
export const reportBlocksApi = baseApi.enhanceEndpoints({ addTagTypes: ['Snippets'] }).injectEndpoints({
  endpoints: (build) => ({
    reportSnippets: build.query<SqlSnippet[], Ref>({
      query: ({ ref }) => routeRequest(contentRoutes.listSnippets, { params: { ref } }),
      transformResponse: (reply: RouteReply<typeof contentRoutes.listSnippets>) => reply.data,
      providesTags: (_r, _e, { ref }) => [{ type: 'Snippets', id: `${ref}:list` }],
    }),
    /** Keyed by the SQL, so two blocks of one snippet share one run. */
    reportBlockResult: build.query<QueryRun, Ref & { sql: string }>({
      query: ({ ref, sql }) => routeRequest(sqlEditorRoutes.run, { params: { ref }, body: { query: sql, readOnly: true } }),
    }),
  }),
  overrideExisting: 'throw',
});

export const { useReportSnippetsQuery, useReportBlockResultQuery } = reportBlocksApi;
