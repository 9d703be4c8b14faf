import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { platformRoutes } from '@dash/contracts';

/** The signed-in user's session: who is signed in, signing in and out. */
export const sessionApi = baseApi.enhanceEndpoints({ addTagTypes: ['Session'] }).injectEndpoints({
  endpoints: (build) => ({
    session: routeQuery(build, platformRoutes.session, { providesTags: ['Session'] }),
    signIn: routeMutation(build, platformRoutes.signIn),
    signOut: routeMutation(build, platformRoutes.signOut),
  }),
  overrideExisting: 'throw',
});

export const { useSessionQuery, useSignInMutation, useSignOutMutation } = sessionApi;
