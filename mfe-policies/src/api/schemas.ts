import { baseApi, routeRequest } from '@dash/shell-sdk';
import { pgMetaRoutes, type RouteReply } from '@dash/contracts';

/** The project's schemas, for the schema picker (system schemas are left out by the service). */
export const rlsSchemasApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    rlsSchemas: build.query<RouteReply<typeof pgMetaRoutes.listSchemas>, { ref: string }>({
      query: ({ ref }) => routeRequest(pgMetaRoutes.listSchemas, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [{ type: 'Schemas', id: ref }],
    }),
  }),
});

export const { useRlsSchemasQuery } = rlsSchemasApi;
