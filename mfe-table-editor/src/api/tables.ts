import { baseApi, routeRequest } from '@dash/shell-sdk';
import { pgMetaRoutes, type RouteReply } from '@dash/contracts';

/** Table metadata (RLS, size, row estimates, comment) of the tables of one schema. */
export const editorTablesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    editorTables: build.query<RouteReply<typeof pgMetaRoutes.listTables>, { ref: string; schema: string }>({
      query: ({ ref, schema }) => routeRequest(pgMetaRoutes.listTables, { params: { ref }, query: { included_schemas: schema } }),
      providesTags: (_r, _e, { ref, schema }) => [{ type: 'Tables', id: `${ref}:${schema}` }],
    }),
  }),
});

export const { useEditorTablesQuery } = editorTablesApi;
