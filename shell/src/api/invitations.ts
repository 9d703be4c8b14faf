import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { organizationRoutes as routes } from '@dash/contracts';

/** Invitations: an organization's pending ones, and the join page's preview, accept and sign-up. */
export const invitationsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Audit', 'Invitations', 'OrgMembers', 'Project'] }).injectEndpoints({
  endpoints: (build) => ({
    listInvitations: routeQuery(build, routes.listInvitations, { providesTags: (_result, _error, { slug }) => [{ type: 'Invitations', id: slug }] }),
    createInvitation: routeMutation(build, routes.createInvitation, {
      invalidatesTags: (_result, _error, { slug }) => [{ type: 'Invitations', id: slug }, 'Audit'],
    }),
    revokeInvitation: routeMutation(build, routes.revokeInvitation, {
      invalidatesTags: (_result, _error, { slug }) => [{ type: 'Invitations', id: slug }, 'Audit'],
    }),
    // A mutation although it reads: the token goes in a POST body, never in a URL that is logged or cached.
    previewInvitation: routeMutation(build, routes.previewInvitation),
    acceptInvitation: routeMutation(build, routes.acceptInvitation, {
      invalidatesTags: [{ type: 'Project', id: 'LIST' }, 'OrgMembers', 'Invitations', 'Audit'],
    }),
    signUpWithInvitation: routeMutation(build, routes.signUpWithInvitation),
  }),
  overrideExisting: 'throw',
});

export const {
  useListInvitationsQuery,
  useCreateInvitationMutation,
  useRevokeInvitationMutation,
  usePreviewInvitationMutation,
  useAcceptInvitationMutation,
  useSignUpWithInvitationMutation,
} = invitationsApi;
