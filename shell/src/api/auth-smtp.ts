import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { authSmtpRoutes, type RouteBody } from '@dash/contracts';

type Ref = { ref: string };

/** Settings → Authentication → SMTP: the project's own mail server (the password is write-only). */
export const authSmtpApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    authSmtp: routeQuery(build, authSmtpRoutes.getAuthSmtp),
    updateAuthSmtp: routeMutation(build, authSmtpRoutes.updateAuthSmtp, {
      parts: ({ ref, body }: Ref & { body: RouteBody<typeof authSmtpRoutes.updateAuthSmtp> }) => ({ params: { ref }, body }),
      async onQueryStarted({ ref }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(authSmtpApi.util.upsertQueryData('authSmtp', { ref }, data));
        } catch {
          // The caller shows the failure.
        }
      },
    }),
  }),
  overrideExisting: 'throw',
});

export const { useAuthSmtpQuery, useUpdateAuthSmtpMutation } = authSmtpApi;
