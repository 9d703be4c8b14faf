import { baseApi, routeRequest } from '@dash/shell-sdk';
import { platformRoutes, type RouteParams, type RouteReply } from '@dash/contracts';

/** Projects the signed-in user is a member of. */
export const projectsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listProjects: build.query<RouteReply<typeof platformRoutes.listProjects>, void>({
      query: () => routeRequest(platformRoutes.listProjects),
      providesTags: [{ type: 'Project', id: 'LIST' }],
    }),
    getProject: build.query<RouteReply<typeof platformRoutes.getProject>, RouteParams<typeof platformRoutes.getProject>>({
      query: ({ ref }) => routeRequest(platformRoutes.getProject, { params: { ref } }),
      providesTags: (_result, _error, { ref }) => [{ type: 'Project', id: ref }],
    }),
  }),
});

export const { useListProjectsQuery, useGetProjectQuery } = projectsApi;
