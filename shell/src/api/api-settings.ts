import { baseApi, routeRequest } from '@dash/shell-sdk';
import { platformRoutes, projectSettingsRoutes, type RouteReply } from '@dash/contracts';

type Ref = { ref: string };
const keysTag = (ref: string) => [{ type: 'Project' as const, id: `${ref}:api-keys` }];

/** The project URL, its API keys and the rotation of the JWT secret that signs them. */
export const apiSettingsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    apiSettings: build.query<RouteReply<typeof projectSettingsRoutes.apiSettings>, Ref>({
      query: ({ ref }) => routeRequest(projectSettingsRoutes.apiSettings, { params: { ref } }),
    }),
    projectApiKeys: build.query<RouteReply<typeof platformRoutes.projectApiKeys>, Ref>({
      query: ({ ref }) => routeRequest(platformRoutes.projectApiKeys, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => keysTag(ref),
    }),
    rotateJwtSecret: build.mutation<RouteReply<typeof projectSettingsRoutes.rotateJwtSecret>, Ref>({
      query: ({ ref }) => routeRequest(projectSettingsRoutes.rotateJwtSecret, { params: { ref } }),
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
  }),
});

export const { useApiSettingsQuery, useProjectApiKeysQuery, useRotateJwtSecretMutation } = apiSettingsApi;
