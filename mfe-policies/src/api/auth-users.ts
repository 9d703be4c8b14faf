import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { authUsersRoutes, type RouteBody } from '@dash/contracts';

/** The project's auth users (pg-meta: `auth.users`), and the auth service's actions on them. */
const tag = (ref: string) => ({ type: 'Project' as const, id: `auth-users:${ref}` });

export const authUsersApi = baseApi.enhanceEndpoints({ addTagTypes: ['Project'] }).injectEndpoints({
  endpoints: (build) => ({
    authUsers: routeQuery(build, authUsersRoutes.listAuthUsers, { providesTags: (_r, _e, { ref }) => [tag(ref)] }),
    createAuthUser: routeMutation(build, authUsersRoutes.createAuthUser, {
      parts: ({ ref, body }: { ref: string; body: RouteBody<typeof authUsersRoutes.createAuthUser> }) => ({ params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    banAuthUser: routeMutation(build, authUsersRoutes.banAuthUser, { invalidatesTags: (_r, _e, { ref }) => [tag(ref)] }),
    deleteAuthUser: routeMutation(build, authUsersRoutes.deleteAuthUser, { invalidatesTags: (_r, _e, { ref }) => [tag(ref)] }),
    // A sent link changes no column the list shows; revoking sessions neither, so nothing is refetched.
    sendAuthUserRecovery: routeMutation(build, authUsersRoutes.sendAuthUserRecovery),
    sendAuthUserMagicLink: routeMutation(build, authUsersRoutes.sendAuthUserMagicLink),
    revokeAuthUserSessions: routeMutation(build, authUsersRoutes.revokeAuthUserSessions),
  }),
  overrideExisting: 'throw',
});

export const {
  useAuthUsersQuery,
  useCreateAuthUserMutation,
  useBanAuthUserMutation,
  useDeleteAuthUserMutation,
  useSendAuthUserRecoveryMutation,
  useSendAuthUserMagicLinkMutation,
  useRevokeAuthUserSessionsMutation,
} = authUsersApi;
