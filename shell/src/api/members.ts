import { baseApi, routeRequest } from '@dash/shell-sdk';
import { organizationRoutes as routes, type OrgRole, type RouteReply } from '@dash/contracts';

type Slug = { slug: string };
type Member = Slug & { userId: string };

/** The members of an organization and their roles. */
export const membersApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listMembers: build.query<RouteReply<typeof routes.listMembers>, Slug>({
      query: ({ slug }) => routeRequest(routes.listMembers, { params: { slug } }),
      providesTags: (_result, _error, { slug }) => [{ type: 'OrgMembers', id: slug }],
    }),
    updateMember: build.mutation<RouteReply<typeof routes.updateMember>, Member & { role: OrgRole }>({
      query: ({ slug, userId, role }) => routeRequest(routes.updateMember, { params: { slug, userId }, body: { role } }),
      // The caller's own role may be the one that changed: the organization (role, menu) reads again.
      invalidatesTags: (_result, _error, { slug }) => [{ type: 'OrgMembers', id: slug }, { type: 'Organization', id: slug }, 'Audit'],
    }),
    removeMember: build.mutation<RouteReply<typeof routes.removeMember>, Member>({
      query: ({ slug, userId }) => routeRequest(routes.removeMember, { params: { slug, userId } }),
      invalidatesTags: (_result, _error, { slug }) => [{ type: 'OrgMembers', id: slug }, 'Audit'],
    }),
  }),
});

export const { useListMembersQuery, useUpdateMemberMutation, useRemoveMemberMutation } = membersApi;
