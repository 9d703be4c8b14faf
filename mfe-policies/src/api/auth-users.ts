import { baseApi, routeRequest } from '@dash/shell-sdk';
import { authUsersRoutes, type RouteBody, type RouteQuery, type RouteReply } from '@dash/contracts';

/** The project's auth users (pg-meta: `auth.users`). */
const tag = (ref: string) => ({ type: 'Project' as const, id: `auth-users:${ref}` });

export const authUsersApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    authUsers: build.query<RouteReply<typeof authUsersRoutes.listAuthUsers>, { ref: string } & RouteQuery<typeof authUsersRoutes.listAuthUsers>>({
      query: ({ ref, ...query }) => routeRequest(authUsersRoutes.listAuthUsers, { params: { ref }, query }),
      providesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    createAuthUser: build.mutation<RouteReply<typeof authUsersRoutes.createAuthUser>, { ref: string; body: RouteBody<typeof authUsersRoutes.createAuthUser> }>({
      query: ({ ref, body }) => routeRequest(authUsersRoutes.createAuthUser, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    banAuthUser: build.mutation<RouteReply<typeof authUsersRoutes.banAuthUser>, { ref: string; id: string; hours: number | null }>({
      query: ({ ref, id, hours }) => routeRequest(authUsersRoutes.banAuthUser, { params: { ref, id }, body: { hours } }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
    deleteAuthUser: build.mutation<RouteReply<typeof authUsersRoutes.deleteAuthUser>, { ref: string; id: string }>({
      query: ({ ref, id }) => routeRequest(authUsersRoutes.deleteAuthUser, { params: { ref, id } }),
      invalidatesTags: (_r, _e, { ref }) => [tag(ref)],
    }),
  }),
});

export const { useAuthUsersQuery, useCreateAuthUserMutation, useBanAuthUserMutation, useDeleteAuthUserMutation } = authUsersApi;
