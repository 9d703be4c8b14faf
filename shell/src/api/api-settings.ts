import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { pgMetaRoutes, platformRoutes, projectSettingsRoutes } from '@dash/contracts';

const keysTag = (ref: string) => [{ type: 'Project' as const, id: `${ref}:api-keys` }];

/**
 * The project URL, its API keys and the rotation of the JWT secret that signs them; the data API settings
 * and the project's schemas they choose from.
 */
export const apiSettingsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Project'] }).injectEndpoints({
  endpoints: (build) => ({
    apiSettings: routeQuery(build, projectSettingsRoutes.apiSettings),
    projectApiKeys: routeQuery(build, platformRoutes.projectApiKeys, { providesTags: (_r, _e, { ref }) => keysTag(ref) }),
    rotateJwtSecret: routeMutation(build, projectSettingsRoutes.rotateJwtSecret, {
      // The old keys are dead: fetch the new ones; the reply is the settings with the rotation's time.
      invalidatesTags: (_r, error, { ref }) => (error ? [] : keysTag(ref)),
      async onQueryStarted({ ref }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(apiSettingsApi.util.upsertQueryData('apiSettings', { ref }, data));
        } catch {
          // The caller shows the failure.
        }
      },
    }),
    dataApiSettings: routeQuery(build, projectSettingsRoutes.dataApiSettings),
    updateDataApiSettings: routeMutation(build, projectSettingsRoutes.updateDataApiSettings, {
      // The reply is the settings as stored.
      async onQueryStarted({ ref }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(apiSettingsApi.util.upsertQueryData('dataApiSettings', { ref }, data));
        } catch {
          // The caller shows the failure.
        }
      },
    }),
    // Its own name: remotes inject their own endpoints over the same route.
    dataApiSchemas: routeQuery(build, pgMetaRoutes.listSchemas),
  }),
  overrideExisting: 'throw',
});

export const {
  useApiSettingsQuery,
  useProjectApiKeysQuery,
  useRotateJwtSecretMutation,
  useDataApiSettingsQuery,
  useUpdateDataApiSettingsMutation,
  useDataApiSchemasQuery,
} = apiSettingsApi;
