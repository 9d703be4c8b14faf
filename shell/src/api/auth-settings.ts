import { baseApi, routeRequest } from '@dash/shell-sdk';
import { platformRoutes, type RouteBody, type RouteReply } from '@dash/contracts';

type Ref = { ref: string };

/** The project's auth settings: site URL, JWT expiry and the anonymous sign-ins switch. */
export const authSettingsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    authSettings: build.query<RouteReply<typeof platformRoutes.getAuthConfig>, Ref>({
      query: ({ ref }) => routeRequest(platformRoutes.getAuthConfig, { params: { ref } }),
    }),
    updateAuthSettings: build.mutation<RouteReply<typeof platformRoutes.updateAuthConfig>, Ref & { body: RouteBody<typeof platformRoutes.updateAuthConfig> }>({
      query: ({ ref, body }) => routeRequest(platformRoutes.updateAuthConfig, { params: { ref }, body }),
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
});

export const { useAuthSettingsQuery, useUpdateAuthSettingsMutation } = authSettingsApi;
