import { baseApi, routeRequest } from '@dash/shell-sdk';
import { pgMetaRoutes, type RouteReply } from '@dash/contracts';

/** The project's schemas, for the schema picker (system schemas are left out by the service). */
export const editorSchemasApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    editorSchemas: build.query<RouteReply<typeof pgMetaRoutes.listSchemas>, { ref: string }>({
      query: ({ ref }) => routeRequest(pgMetaRoutes.listSchemas, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [{ type: 'Schemas', id: ref }],
    }),
  }),
});

export const { useEditorSchemasQuery } = editorSchemasApi;
