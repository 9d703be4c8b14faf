import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { authHostedConfigRoutes, type AuthHostedConfig } from '@dash/contracts';

/** The hosted auth settings (providers, rate limits, templates, redirect URLs, hooks), kept by the platform. */
const tag = (ref: string) => ({ type: 'Project' as const, id: `auth-hosted:${ref}` });

export const authHostedConfigApi = baseApi.enhanceEndpoints({ addTagTypes: ['Project'] }).injectEndpoints({
  endpoints: (build) => ({
    authHostedConfig: routeQuery(build, authHostedConfigRoutes.getAuthHostedConfig, { providesTags: (_r, _e, { ref }) => [tag(ref)] }),
    updateAuthHostedConfig: routeMutation(build, authHostedConfigRoutes.updateAuthHostedConfig, {
      parts: ({ ref, body }: { ref: string; body: Partial<AuthHostedConfig> }) => ({ params: { ref }, body }),
      // The reply is the whole new configuration: no refetch needed.
      async onQueryStarted({ ref }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(authHostedConfigApi.util.upsertQueryData('authHostedConfig', { ref }, data));
      },
    }),
  }),
  overrideExisting: 'throw',
});

export const { useAuthHostedConfigQuery, useUpdateAuthHostedConfigMutation } = authHostedConfigApi;
