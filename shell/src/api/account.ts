import { baseApi, routeRequest } from '@dash/shell-sdk';
import { accountRoutes, type RouteBody, type RouteParams, type RouteReply } from '@dash/contracts';

/** The signed-in user's account: profile and theme, personal access tokens, MFA factors. */
export const accountApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    profile: build.query<RouteReply<typeof accountRoutes.getProfile>, void>({
      query: () => routeRequest(accountRoutes.getProfile),
      providesTags: ['Profile'],
    }),
    updateProfile: build.mutation<RouteReply<typeof accountRoutes.updateProfile>, RouteBody<typeof accountRoutes.updateProfile>>({
      query: (body) => routeRequest(accountRoutes.updateProfile, { body }),
      // The top bar shows the name from the session.
      invalidatesTags: ['Profile', 'Session'],
    }),
    accessTokens: build.query<RouteReply<typeof accountRoutes.listAccessTokens>, void>({
      query: () => routeRequest(accountRoutes.listAccessTokens),
      providesTags: ['AccessTokens'],
    }),
    createAccessToken: build.mutation<RouteReply<typeof accountRoutes.createAccessToken>, RouteBody<typeof accountRoutes.createAccessToken>>({
      query: (body) => routeRequest(accountRoutes.createAccessToken, { body }),
      invalidatesTags: ['AccessTokens'],
    }),
    revokeAccessToken: build.mutation<RouteReply<typeof accountRoutes.revokeAccessToken>, RouteParams<typeof accountRoutes.revokeAccessToken>>({
      query: ({ id }) => routeRequest(accountRoutes.revokeAccessToken, { params: { id } }),
      invalidatesTags: ['AccessTokens'],
    }),
    mfaFactors: build.query<RouteReply<typeof accountRoutes.listMfaFactors>, void>({
      query: () => routeRequest(accountRoutes.listMfaFactors),
      providesTags: ['MfaFactors'],
    }),
    enrollMfaFactor: build.mutation<RouteReply<typeof accountRoutes.enrollMfaFactor>, RouteBody<typeof accountRoutes.enrollMfaFactor>>({
      query: (body) => routeRequest(accountRoutes.enrollMfaFactor, { body }),
      invalidatesTags: ['MfaFactors'],
    }),
    verifyMfaFactor: build.mutation<
      RouteReply<typeof accountRoutes.verifyMfaFactor>,
      RouteParams<typeof accountRoutes.verifyMfaFactor> & RouteBody<typeof accountRoutes.verifyMfaFactor>
    >({
      query: ({ id, code }) => routeRequest(accountRoutes.verifyMfaFactor, { params: { id }, body: { code } }),
      // The session reached aal2 and its user now needs it.
      invalidatesTags: ['MfaFactors', 'Session'],
    }),
    removeMfaFactor: build.mutation<RouteReply<typeof accountRoutes.removeMfaFactor>, RouteParams<typeof accountRoutes.removeMfaFactor>>({
      query: ({ id }) => routeRequest(accountRoutes.removeMfaFactor, { params: { id } }),
      invalidatesTags: ['MfaFactors', 'Session'],
    }),
    regenerateRecoveryCodes: build.mutation<RouteReply<typeof accountRoutes.regenerateRecoveryCodes>, void>({
      query: () => routeRequest(accountRoutes.regenerateRecoveryCodes),
      invalidatesTags: ['MfaFactors'],
    }),
    /** Sign-in's second step. */
    verifyMfa: build.mutation<RouteReply<typeof accountRoutes.verifyMfa>, RouteBody<typeof accountRoutes.verifyMfa>>({
      query: (body) => routeRequest(accountRoutes.verifyMfa, { body }),
    }),
  }),
});

export const {
  useProfileQuery,
  useUpdateProfileMutation,
  useAccessTokensQuery,
  useCreateAccessTokenMutation,
  useRevokeAccessTokenMutation,
  useMfaFactorsQuery,
  useEnrollMfaFactorMutation,
  useVerifyMfaFactorMutation,
  useRemoveMfaFactorMutation,
  useRegenerateRecoveryCodesMutation,
  useVerifyMfaMutation,
} = accountApi;
