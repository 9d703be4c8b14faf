import { baseApi } from '@dash/shell-sdk';
import { routeQuery } from '@dash/shell-sdk/routes';
import { apiDocsRoutes, platformRoutes, projectSettingsRoutes } from '@dash/contracts';

/**
 * What the API docs read: the catalog's tables and functions and the TypeScript types (pg-meta), and
 * from the platform the project (its status: an inactive one is not loaded), its URL and its anon key.
 */
export const apiDocsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Project', 'Tables'] }).injectEndpoints({
  endpoints: (build) => ({
    apiDocs: routeQuery(build, apiDocsRoutes.apiDocs, { providesTags: (_r, _e, { ref }) => [{ type: 'Tables', id: `api-docs:${ref}` }] }),
    generatedTypes: routeQuery(build, apiDocsRoutes.generateTypescript, { keepUnusedDataFor: 0 }),
    apiDocsProject: routeQuery(build, platformRoutes.getProject, { providesTags: (_r, _e, { ref }) => [{ type: 'Project', id: ref }] }),
    apiDocsSettings: routeQuery(build, projectSettingsRoutes.apiSettings, { providesTags: (_r, _e, { ref }) => [{ type: 'Project', id: ref }] }),
    apiDocsKeys: routeQuery(build, platformRoutes.projectApiKeys, { providesTags: (_r, _e, { ref }) => [{ type: 'Project', id: ref }] }),
  }),
  overrideExisting: 'throw',
});

export const { useApiDocsQuery, useLazyGeneratedTypesQuery, useApiDocsProjectQuery, useApiDocsSettingsQuery, useApiDocsKeysQuery } = apiDocsApi;
