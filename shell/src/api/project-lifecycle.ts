import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { projectLifecycleRoutes as routes } from '@dash/contracts';

type Ref = { ref: string };
/** Whatever shows the project (its page, its card, its lifecycle, its infrastructure) reads again. */
const changed = (_result: unknown, _error: unknown, { ref }: Ref) => [
  { type: 'Project' as const, id: ref },
  { type: 'Project' as const, id: 'LIST' },
];

/** A project's life: create, progress while it comes up, rename, pause, restore, delete, infrastructure. */
export const projectLifecycleApi = baseApi.enhanceEndpoints({ addTagTypes: ['Project'] }).injectEndpoints({
  endpoints: (build) => ({
    createProject: routeMutation(build, routes.createProject, { invalidatesTags: [{ type: 'Project', id: 'LIST' }] }),
    projectLifecycle: routeQuery(build, routes.projectLifecycle, { providesTags: (_result, _error, { ref }) => [{ type: 'Project', id: ref }] }),
    projectInfrastructure: routeQuery(build, routes.projectInfrastructure, {
      providesTags: (_result, _error, { ref }) => [{ type: 'Project', id: ref }],
    }),
    renameProject: routeMutation(build, routes.renameProject, { invalidatesTags: changed }),
    pauseProject: routeMutation(build, routes.pauseProject, { invalidatesTags: changed }),
    restoreProject: routeMutation(build, routes.restoreProject, { invalidatesTags: changed }),
    retryProvisioning: routeMutation(build, routes.retryProvisioning, {
      invalidatesTags: (_result, _error, { ref }) => [{ type: 'Project', id: ref }],
    }),
    // Only the list: the deleted project's own queries would answer 404 while its page is being left.
    deleteProject: routeMutation(build, routes.deleteProject, { invalidatesTags: [{ type: 'Project', id: 'LIST' }] }),
  }),
  overrideExisting: 'throw',
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
