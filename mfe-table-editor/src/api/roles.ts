import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { rolesRoutes, type RoleCreate, type RoleUpdate } from '@dash/contracts';

/** Database roles: for choosing a role to impersonate, and the database area's roles page. */
export const editorRolesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Roles'] }).injectEndpoints({
  endpoints: (build) => ({
    editorRoles: routeQuery(build, rolesRoutes.listRoles, { providesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }] }),
    createDatabaseRole: routeMutation(build, rolesRoutes.createRole, {
      parts: ({ ref, body }: { ref: string; body: RoleCreate }) => ({ params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }],
    }),
    updateDatabaseRole: routeMutation(build, rolesRoutes.updateRole, {
      parts: ({ ref, id, body }: { ref: string; id: number; body: RoleUpdate }) => ({ params: { ref, id }, body }),
      invalidatesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }],
    }),
    deleteDatabaseRole: routeMutation(build, rolesRoutes.deleteRole, { invalidatesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }] }),
  }),
  overrideExisting: 'throw',
});

export const { useEditorRolesQuery, useCreateDatabaseRoleMutation, useUpdateDatabaseRoleMutation, useDeleteDatabaseRoleMutation } = editorRolesApi;
