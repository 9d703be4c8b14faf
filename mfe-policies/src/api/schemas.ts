import { baseApi } from '@dash/shell-sdk';
import { routeQuery } from '@dash/shell-sdk/routes';
import { pgMetaRoutes } from '@dash/contracts';

/** The project's schemas, for the schema picker (system schemas are left out by the service). */
export const rlsSchemasApi = baseApi.enhanceEndpoints({ addTagTypes: ['Schemas'] }).injectEndpoints({
  endpoints: (build) => ({
    rlsSchemas: routeQuery(build, pgMetaRoutes.listSchemas, { providesTags: (_r, _e, { ref }) => [{ type: 'Schemas', id: ref }] }),
  }),
  overrideExisting: 'throw',
});

export const { useRlsSchemasQuery } = rlsSchemasApi;
