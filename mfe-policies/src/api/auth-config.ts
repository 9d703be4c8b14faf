import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { platformRoutes, type AuthConfigUpdate } from '@dash/contracts';

/**
 * The project's auth configuration: whether anonymous sign-ins are on (drives the policies' warning), and
 * the site URL the URL Configuration page changes.
 */
export const rlsAuthConfigApi = baseApi.enhanceEndpoints({ addTagTypes: ['Project'] }).injectEndpoints({
  endpoints: (build) => ({
    rlsAuthConfig: routeQuery(build, platformRoutes.getAuthConfig, { providesTags: (_r, _e, { ref }) => [{ type: 'Project', id: ref }] }),
    rlsUpdateAuthConfig: routeMutation(build, platformRoutes.updateAuthConfig, {
      parts: ({ ref, body }: { ref: string; body: AuthConfigUpdate }) => ({ params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [{ type: 'Project', id: ref }],
    }),
  }),
  overrideExisting: 'throw',
});

export const { useRlsAuthConfigQuery, useRlsUpdateAuthConfigMutation } = rlsAuthConfigApi;
