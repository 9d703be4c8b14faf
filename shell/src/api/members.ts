import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { organizationRoutes as routes } from '@dash/contracts';

/** The members of an organization and their roles. */
export const membersApi = baseApi.enhanceEndpoints({ addTagTypes: ['Audit', 'OrgMembers', 'Organization'] }).injectEndpoints({
  endpoints: (build) => ({
    listMembers: routeQuery(build, routes.listMembers, { providesTags: (_result, _error, { slug }) => [{ type: 'OrgMembers', id: slug }] }),
    updateMember: routeMutation(build, routes.updateMember, {
      // The caller's own role may be the one that changed: the organization (role, menu) reads again.
      invalidatesTags: (_result, _error, { slug }) => [{ type: 'OrgMembers', id: slug }, { type: 'Organization', id: slug }, 'Audit'],
    }),
    removeMember: routeMutation(build, routes.removeMember, {
      invalidatesTags: (_result, _error, { slug }) => [{ type: 'OrgMembers', id: slug }, 'Audit'],
    }),
  }),
  overrideExisting: 'throw',
});

export const { useListMembersQuery, useUpdateMemberMutation, useRemoveMemberMutation } = membersApi;
