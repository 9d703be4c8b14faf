import { baseApi, routeRequest } from '@dash/shell-sdk';
import { type RouteReply, tableEditorRoutes } from '@dash/contracts';

/** The tables of one schema with their row-level security status. */
export const rlsTablesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    rlsTables: build.query<RouteReply<typeof tableEditorRoutes.listTables>, { ref: string; schema: string }>({
      query: ({ ref, schema }) => routeRequest(tableEditorRoutes.listTables, { params: { ref }, query: { included_schemas: schema } }),
      providesTags: (_r, _e, { ref, schema }) => [{ type: 'Tables', id: `${ref}:${schema}` }],
    }),
  }),
});

export const { useRlsTablesQuery } = rlsTablesApi;
