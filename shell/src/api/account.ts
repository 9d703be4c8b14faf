import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { accountRoutes } from '@dash/contracts';

/** The signed-in user's account: profile and theme, personal access tokens, MFA factors. */
export const accountApi = baseApi.enhanceEndpoints({ addTagTypes: ['AccessTokens', 'MfaFactors', 'Profile', 'Session'] }).injectEndpoints({
  endpoints: (build) => ({
    profile: routeQuery(build, accountRoutes.getProfile, { providesTags: ['Profile'] }),
    updateProfile: routeMutation(build, accountRoutes.updateProfile, {
      // The top bar shows the name from the session.
      invalidatesTags: ['Profile', 'Session'],
    }),
    accessTokens: routeQuery(build, accountRoutes.listAccessTokens, { providesTags: ['AccessTokens'] }),
    createAccessToken: routeMutation(build, accountRoutes.createAccessToken, { invalidatesTags: ['AccessTokens'] }),
    revokeAccessToken: routeMutation(build, accountRoutes.revokeAccessToken, { invalidatesTags: ['AccessTokens'] }),
    mfaFactors: routeQuery(build, accountRoutes.listMfaFactors, { providesTags: ['MfaFactors'] }),
    enrollMfaFactor: routeMutation(build, accountRoutes.enrollMfaFactor, { invalidatesTags: ['MfaFactors'] }),
    verifyMfaFactor: routeMutation(build, accountRoutes.verifyMfaFactor, {
      // The session reached aal2 and its user now needs it.
      invalidatesTags: ['MfaFactors', 'Session'],
    }),
    removeMfaFactor: routeMutation(build, accountRoutes.removeMfaFactor, { invalidatesTags: ['MfaFactors', 'Session'] }),
    regenerateRecoveryCodes: routeMutation(build, accountRoutes.regenerateRecoveryCodes, { invalidatesTags: ['MfaFactors'] }),
    /** Sign-in's second step. */
    verifyMfa: routeMutation(build, accountRoutes.verifyMfa),
  }),
  overrideExisting: 'throw',
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
