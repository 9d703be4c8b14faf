import { baseApi, routeRequest } from '@dash/shell-sdk';
import { apiDocsRoutes, platformRoutes, projectSettingsRoutes, type RouteReply } from '@dash/contracts';

/**
 * What the API docs read: the catalog's tables and functions and the TypeScript types (pg-meta), and
 * from the platform the project (its status: an inactive one is not loaded), its URL and its anon key.
 */
export const apiDocsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    apiDocs: build.query<RouteReply<typeof apiDocsRoutes.apiDocs>, { ref: string; schema?: string }>({
      query: ({ ref, schema }) => routeRequest(apiDocsRoutes.apiDocs, { params: { ref }, query: { schema } }),
      providesTags: (_r, _e, { ref }) => [{ type: 'Tables', id: `api-docs:${ref}` }],
    }),
    generatedTypes: build.query<RouteReply<typeof apiDocsRoutes.generateTypescript>, { ref: string; included_schemas?: string }>({
      query: ({ ref, included_schemas }) => routeRequest(apiDocsRoutes.generateTypescript, { params: { ref }, query: { included_schemas } }),
      keepUnusedDataFor: 0,
    }),
    apiDocsProject: build.query<RouteReply<typeof platformRoutes.getProject>, { ref: string }>({
      query: ({ ref }) => routeRequest(platformRoutes.getProject, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [{ type: 'Project', id: ref }],
    }),
    apiDocsSettings: build.query<RouteReply<typeof projectSettingsRoutes.apiSettings>, { ref: string }>({
      query: ({ ref }) => routeRequest(projectSettingsRoutes.apiSettings, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [{ type: 'Project', id: ref }],
    }),
    apiDocsKeys: build.query<RouteReply<typeof platformRoutes.projectApiKeys>, { ref: string }>({
      query: ({ ref }) => routeRequest(platformRoutes.projectApiKeys, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [{ type: 'Project', id: ref }],
    }),
  }),
});

export const { useApiDocsQuery, useLazyGeneratedTypesQuery, useApiDocsProjectQuery, useApiDocsSettingsQuery, useApiDocsKeysQuery } = apiDocsApi;
