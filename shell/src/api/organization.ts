import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { organizationRoutes as routes } from '@dash/contracts';

/** One organization as its member sees it (with the member's role), and renaming it. */
export const organizationApi = baseApi.enhanceEndpoints({ addTagTypes: ['Audit', 'Organization', 'Project'] }).injectEndpoints({
  endpoints: (build) => ({
    getOrganization: routeQuery(build, routes.getOrganization, { providesTags: (_result, _error, { slug }) => [{ type: 'Organization', id: slug }] }),
    // The projects page shows organization names too.
    updateOrganization: routeMutation(build, routes.updateOrganization, {
      invalidatesTags: (_result, _error, { slug }) => [{ type: 'Organization', id: slug }, { type: 'Project', id: 'LIST' }, 'Audit'],
    }),
  }),
  overrideExisting: 'throw',
});

export const { useGetOrganizationQuery, useUpdateOrganizationMutation } = organizationApi;
