import { baseApi, routeRequest } from '@dash/shell-sdk';
import { organizationRoutes as routes, type RouteBody, type RouteReply } from '@dash/contracts';

type Slug = { slug: string };

/** One organization as its member sees it (with the member's role), and renaming it. */
export const organizationApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getOrganization: build.query<RouteReply<typeof routes.getOrganization>, Slug>({
      query: ({ slug }) => routeRequest(routes.getOrganization, { params: { slug } }),
      providesTags: (_result, _error, { slug }) => [{ type: 'Organization', id: slug }],
    }),
    // The projects page shows organization names too.
    updateOrganization: build.mutation<RouteReply<typeof routes.updateOrganization>, Slug & RouteBody<typeof routes.updateOrganization>>({
      query: ({ slug, name }) => routeRequest(routes.updateOrganization, { params: { slug }, body: { name } }),
      invalidatesTags: (_result, _error, { slug }) => [{ type: 'Organization', id: slug }, { type: 'Project', id: 'LIST' }, 'Audit'],
    }),
  }),
});

export const { useGetOrganizationQuery, useUpdateOrganizationMutation } = organizationApi;
