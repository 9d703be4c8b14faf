import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { platformRoutes, type RouteBody } from '@dash/contracts';

type Ref = { ref: string };

/** The project's auth settings: site URL, JWT expiry and the anonymous sign-ins switch. */
export const authSettingsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Project'] }).injectEndpoints({
  endpoints: (build) => ({
    authSettings: routeQuery(build, platformRoutes.getAuthConfig),
    updateAuthSettings: routeMutation(build, platformRoutes.updateAuthConfig, {
      parts: ({ ref, body }: Ref & { body: RouteBody<typeof platformRoutes.updateAuthConfig> }) => ({ params: { ref }, body }),
      // The policies page reads the anonymous sign-ins switch under the project's tag: it follows the change.
      invalidatesTags: (_r, error, { ref }) => (error ? [] : [{ type: 'Project', id: ref }]),
      async onQueryStarted({ ref }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(authSettingsApi.util.upsertQueryData('authSettings', { ref }, data));
        } catch {
          // The caller shows the failure.
        }
      },
    }),
  }),
  overrideExisting: 'throw',
});

export const { useAuthSettingsQuery, useUpdateAuthSettingsMutation } = authSettingsApi;
