import { fetchBaseQuery, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { baseApi } from '@dash/shell-sdk';
import { routeQuery } from '@dash/shell-sdk/routes';
import { apiDocsRoutes, platformRoutes, projectSettingsRoutes } from '@dash/contracts';
import type { RunRequest } from '../api-docs/examples';

/** A docs example's request and the key it is sent with (the project's anon key). */
export interface RunExampleArgs {
  request: RunRequest;
  apiKey: string;
}

/** What the project's API answered: any status (an error status is an answer to show, not a failure). */
export interface RunExampleAnswer {
  status: number;
  /** The parsed JSON when the answer is JSON, else the text. */
  body: unknown;
  json: boolean;
}

/*
 * The project's own APIs, not the dashboard's: no session cookie (the key alone says who calls), and
 * outside the sdk's base query, whose 401 means the dashboard session ended, while here it is the
 * project API's answer to a key.
 */
const projectApiQuery = fetchBaseQuery({ credentials: 'omit', responseHandler: 'content-type' });

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
    /** Sends a docs example's read to the project's API: the "Run" of an example. */
    runApiDocsExample: build.query<RunExampleAnswer, RunExampleArgs>({
      async queryFn({ request, apiKey }, api, extra) {
        const headers = { apikey: apiKey, authorization: `Bearer ${apiKey}` };
        const result = await projectApiQuery({ url: request.url, method: request.method, headers }, api, extra);
        const response = result.meta?.response;
        if (!response) return { error: result.error as FetchBaseQueryError };
        // A body that claims JSON but does not parse is shown as the text it is.
        const json = /[/+]json\b/.test(response.headers.get('content-type') ?? '') && result.error?.status !== 'PARSING_ERROR';
        return { data: { status: response.status, body: result.error ? result.error.data : result.data, json } };
      },
      keepUnusedDataFor: 0,
    }),
  }),
  overrideExisting: 'throw',
});

export const { useApiDocsQuery, useLazyGeneratedTypesQuery, useApiDocsProjectQuery, useApiDocsSettingsQuery, useApiDocsKeysQuery, useLazyRunApiDocsExampleQuery } =
  apiDocsApi;
