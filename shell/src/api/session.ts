import { baseApi, routeRequest } from '@dash/shell-sdk';
import { platformRoutes, type RouteBody, type RouteReply } from '@dash/contracts';

/** The signed-in user's session: who is signed in, signing in and out. */
export const sessionApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    session: build.query<RouteReply<typeof platformRoutes.session>, void>({
      query: () => routeRequest(platformRoutes.session),
      providesTags: ['Session'],
    }),
    signIn: build.mutation<RouteReply<typeof platformRoutes.signIn>, RouteBody<typeof platformRoutes.signIn>>({
      query: (body) => routeRequest(platformRoutes.signIn, { body }),
    }),
    signOut: build.mutation<RouteReply<typeof platformRoutes.signOut>, void>({
      query: () => routeRequest(platformRoutes.signOut),
    }),
  }),
});

export const { useSessionQuery, useSignInMutation, useSignOutMutation } = sessionApi;
