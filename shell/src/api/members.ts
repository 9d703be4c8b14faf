import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeRequest } from '@dash/shell-sdk/routes';
import { organizationRoutes as routes, type OrgRole, type RouteReply } from '@dash/contracts';

type Slug = { slug: string };
type Member = Slug & { userId: string };

/** The members of an organization and their roles. */
export const membersApi = baseApi.enhanceEndpoints({ addTagTypes: ['Audit', 'OrgMembers', 'Organization'] }).injectEndpoints({
  endpoints: (build) => ({
    listMembers: routeQuery(build, routes.listMembers, { providesTags: (_result, _error, { slug }) => [{ type: 'OrgMembers', id: slug }] }),
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
  overrideExisting: 'throw',
});

export const { useListMembersQuery, useUpdateMemberMutation, useRemoveMemberMutation } = membersApi;
