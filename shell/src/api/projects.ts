import { baseApi } from '@dash/shell-sdk';
import { routeQuery } from '@dash/shell-sdk/routes';
import { platformRoutes } from '@dash/contracts';

/** Projects the signed-in user is a member of. */
export const projectsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Project'] }).injectEndpoints({
  endpoints: (build) => ({
    listProjects: routeQuery(build, platformRoutes.listProjects, { providesTags: [{ type: 'Project', id: 'LIST' }] }),
    getProject: routeQuery(build, platformRoutes.getProject, { providesTags: (_result, _error, { ref }) => [{ type: 'Project', id: ref }] }),
  }),
  overrideExisting: 'throw',
});

export const { useListProjectsQuery, useGetProjectQuery } = projectsApi;
