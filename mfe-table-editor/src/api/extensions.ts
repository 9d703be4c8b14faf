import { routeRequest } from '@dash/shell-sdk';
import { databaseRoutes, type ExtensionCreate, type ExtensionDependent, type PgExtension } from '@dash/contracts';
import { databaseApi } from './database';

type Ref = { ref: string };
const tag = (ref: string) => ({ type: 'Extensions' as const, id: ref });

/** Extensions; enabling or disabling one changes functions, types and indexes too. */
export const databaseExtensionsApi = databaseApi.injectEndpoints({
  endpoints: (build) => ({
    databaseExtensions: build.query<PgExtension[], Ref>({
      query: ({ ref }) => routeRequest(databaseRoutes.listExtensions, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    extensionDependents: build.query<ExtensionDependent[], Ref & { name: string }>({
      query: ({ ref, name }) => routeRequest(databaseRoutes.extensionDependents, { params: { ref, name } }),
      providesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    enableExtension: build.mutation<PgExtension, Ref & { body: ExtensionCreate }>({
      query: ({ ref, body }) => routeRequest(databaseRoutes.createExtension, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref), 'Functions', 'Types', 'Indexes'],
    }),
    disableExtension: build.mutation<PgExtension, Ref & { name: string; cascade: boolean }>({
      query: ({ ref, name, cascade }) => routeRequest(databaseRoutes.deleteExtension, { params: { ref, name }, query: { cascade } }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref), 'Functions', 'Types', 'Indexes', 'Tables', 'Columns'],
    }),
  }),
});

export const { useDatabaseExtensionsQuery, useExtensionDependentsQuery, useEnableExtensionMutation, useDisableExtensionMutation } = databaseExtensionsApi;
