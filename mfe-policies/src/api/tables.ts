import { baseApi, routeRequest } from '@dash/shell-sdk';
import { pgMetaRoutes, type RouteReply } from '@dash/contracts';

/** The tables of one schema with their row-level security status. */
export const rlsTablesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    rlsTables: build.query<RouteReply<typeof pgMetaRoutes.listTables>, { ref: string; schema: string }>({
      query: ({ ref, schema }) => routeRequest(pgMetaRoutes.listTables, { params: { ref }, query: { included_schemas: schema } }),
      providesTags: (_r, _e, { ref, schema }) => [{ type: 'Tables', id: `${ref}:${schema}` }],
    }),
  }),
});

export const { useRlsTablesQuery } = rlsTablesApi;
