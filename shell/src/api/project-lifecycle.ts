import { baseApi, routeRequest } from '@dash/shell-sdk';
import { projectLifecycleRoutes as routes, type RouteBody, type RouteReply } from '@dash/contracts';

type Ref = { ref: string };
/** Whatever shows the project (its page, its card, its lifecycle, its infrastructure) reads again. */
const changed = (_result: unknown, _error: unknown, { ref }: Ref) => [
  { type: 'Project' as const, id: ref },
  { type: 'Project' as const, id: 'LIST' },
];

/** A project's life: create, progress while it comes up, rename, pause, restore, delete, infrastructure. */
export const projectLifecycleApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    createProject: build.mutation<RouteReply<typeof routes.createProject>, RouteBody<typeof routes.createProject>>({
      query: (body) => routeRequest(routes.createProject, { body }),
      invalidatesTags: [{ type: 'Project', id: 'LIST' }],
    }),
    projectLifecycle: build.query<RouteReply<typeof routes.projectLifecycle>, Ref>({
      query: ({ ref }) => routeRequest(routes.projectLifecycle, { params: { ref } }),
      providesTags: (_result, _error, { ref }) => [{ type: 'Project', id: ref }],
    }),
    projectInfrastructure: build.query<RouteReply<typeof routes.projectInfrastructure>, Ref>({
      query: ({ ref }) => routeRequest(routes.projectInfrastructure, { params: { ref } }),
      providesTags: (_result, _error, { ref }) => [{ type: 'Project', id: ref }],
    }),
    renameProject: build.mutation<RouteReply<typeof routes.renameProject>, Ref & RouteBody<typeof routes.renameProject>>({
      query: ({ ref, name }) => routeRequest(routes.renameProject, { params: { ref }, body: { name } }),
      invalidatesTags: changed,
    }),
    pauseProject: build.mutation<RouteReply<typeof routes.pauseProject>, Ref>({
      query: ({ ref }) => routeRequest(routes.pauseProject, { params: { ref } }),
      invalidatesTags: changed,
    }),
    restoreProject: build.mutation<RouteReply<typeof routes.restoreProject>, Ref>({
      query: ({ ref }) => routeRequest(routes.restoreProject, { params: { ref } }),
      invalidatesTags: changed,
    }),
    retryProvisioning: build.mutation<RouteReply<typeof routes.retryProvisioning>, Ref>({
      query: ({ ref }) => routeRequest(routes.retryProvisioning, { params: { ref } }),
      invalidatesTags: (_result, _error, { ref }) => [{ type: 'Project', id: ref }],
    }),
    // Only the list: the deleted project's own queries would answer 404 while its page is being left.
    deleteProject: build.mutation<RouteReply<typeof routes.deleteProject>, Ref>({
      query: ({ ref }) => routeRequest(routes.deleteProject, { params: { ref } }),
      invalidatesTags: [{ type: 'Project', id: 'LIST' }],
    }),
  }),
});

export const {
  useCreateProjectMutation,
  useProjectLifecycleQuery,
  useProjectInfrastructureQuery,
  useRenameProjectMutation,
  usePauseProjectMutation,
  useRestoreProjectMutation,
  useRetryProvisioningMutation,
  useDeleteProjectMutation,
} = projectLifecycleApi;
