import { baseApi, routeRequest } from '@dash/shell-sdk';
import { organizationRoutes as routes, type RouteBody, type RouteReply } from '@dash/contracts';

type Slug = { slug: string };

/** Invitations: an organization's pending ones, and the join page's preview, accept and sign-up. */
export const invitationsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listInvitations: build.query<RouteReply<typeof routes.listInvitations>, Slug>({
      query: ({ slug }) => routeRequest(routes.listInvitations, { params: { slug } }),
      providesTags: (_result, _error, { slug }) => [{ type: 'Invitations', id: slug }],
    }),
    createInvitation: build.mutation<RouteReply<typeof routes.createInvitation>, Slug & RouteBody<typeof routes.createInvitation>>({
      query: ({ slug, ...body }) => routeRequest(routes.createInvitation, { params: { slug }, body }),
      invalidatesTags: (_result, _error, { slug }) => [{ type: 'Invitations', id: slug }, 'Audit'],
    }),
    revokeInvitation: build.mutation<RouteReply<typeof routes.revokeInvitation>, Slug & { id: string }>({
      query: ({ slug, id }) => routeRequest(routes.revokeInvitation, { params: { slug, id } }),
      invalidatesTags: (_result, _error, { slug }) => [{ type: 'Invitations', id: slug }, 'Audit'],
    }),
    // A mutation although it reads: the token goes in a POST body, never in a URL that is logged or cached.
    previewInvitation: build.mutation<RouteReply<typeof routes.previewInvitation>, RouteBody<typeof routes.previewInvitation>>({
      query: (body) => routeRequest(routes.previewInvitation, { body }),
    }),
    acceptInvitation: build.mutation<RouteReply<typeof routes.acceptInvitation>, RouteBody<typeof routes.acceptInvitation>>({
      query: (body) => routeRequest(routes.acceptInvitation, { body }),
      invalidatesTags: [{ type: 'Project', id: 'LIST' }, 'OrgMembers', 'Invitations', 'Audit'],
    }),
    signUpWithInvitation: build.mutation<RouteReply<typeof routes.signUpWithInvitation>, RouteBody<typeof routes.signUpWithInvitation>>({
      query: (body) => routeRequest(routes.signUpWithInvitation, { body }),
    }),
  }),
});

export const {
  useListInvitationsQuery,
  useCreateInvitationMutation,
  useRevokeInvitationMutation,
  usePreviewInvitationMutation,
  useAcceptInvitationMutation,
  useSignUpWithInvitationMutation,
} = invitationsApi;
