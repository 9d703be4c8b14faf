import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { databaseRoutes, type ExtensionCreate } from '@dash/contracts';
import { databaseApi } from './database';

type Ref = { ref: string };
const tag = (ref: string) => ({ type: 'Extensions' as const, id: ref });

/** Extensions; enabling or disabling one changes functions, types and indexes too. */
export const databaseExtensionsApi = databaseApi.enhanceEndpoints({ addTagTypes: ['Columns', 'Tables'] }).injectEndpoints({
  endpoints: (build) => ({
    databaseExtensions: routeQuery(build, databaseRoutes.listExtensions, { providesTags: (_r, _e, { ref }) => [tag(ref)] }),
    extensionDependents: routeQuery(build, databaseRoutes.extensionDependents, { providesTags: (_r, _e, { ref }) => [tag(ref)] }),
    enableExtension: routeMutation(build, databaseRoutes.createExtension, {
      parts: ({ ref, body }: Ref & { body: ExtensionCreate }) => ({ params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref), 'Functions', 'Types', 'Indexes'],
    }),
    disableExtension: routeMutation(build, databaseRoutes.deleteExtension, {
      invalidatesTags: (_r, _e, { ref }) => [tag(ref), 'Functions', 'Types', 'Indexes', 'Tables', 'Columns'],
    }),
  }),
  overrideExisting: 'throw',
});

export const { useDatabaseExtensionsQuery, useExtensionDependentsQuery, useEnableExtensionMutation, useDisableExtensionMutation } = databaseExtensionsApi;
