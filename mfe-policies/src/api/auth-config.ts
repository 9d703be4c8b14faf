import { baseApi, routeRequest } from '@dash/shell-sdk';
import { platformRoutes, type AuthConfigUpdate, type RouteReply } from '@dash/contracts';

/**
 * The project's auth configuration: whether anonymous sign-ins are on (drives the policies' warning), and
 * the site URL the URL Configuration page changes.
 */
export const rlsAuthConfigApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    rlsAuthConfig: build.query<RouteReply<typeof platformRoutes.getAuthConfig>, { ref: string }>({
      query: ({ ref }) => routeRequest(platformRoutes.getAuthConfig, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [{ type: 'Project', id: ref }],
    }),
    updateRlsAuthConfig: build.mutation<RouteReply<typeof platformRoutes.updateAuthConfig>, { ref: string; body: AuthConfigUpdate }>({
      query: ({ ref, body }) => routeRequest(platformRoutes.updateAuthConfig, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [{ type: 'Project', id: ref }],
    }),
  }),
});

export const { useRlsAuthConfigQuery, useUpdateRlsAuthConfigMutation } = rlsAuthConfigApi;
