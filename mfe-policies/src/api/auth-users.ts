import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { authUsersRoutes, type RouteBody } from '@dash/contracts';

/** The project's auth users (pg-meta: `auth.users`). */
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
  }),
  overrideExisting: 'throw',
});

export const { useAuthUsersQuery, useCreateAuthUserMutation, useBanAuthUserMutation, useDeleteAuthUserMutation } = authUsersApi;
