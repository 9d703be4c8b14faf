import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation, routeRequest } from '@dash/shell-sdk/routes';
import { rolesRoutes, type PgRole, type RoleCreate, type RoleUpdate } from '@dash/contracts';

/** Database roles: for choosing a role to impersonate, and the database area's roles page. */
export const editorRolesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Roles'] }).injectEndpoints({
  endpoints: (build) => ({
    editorRoles: routeQuery(build, rolesRoutes.listRoles, { providesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }] }),
    createDatabaseRole: build.mutation<PgRole, { ref: string; body: RoleCreate }>({
      query: ({ ref, body }) => routeRequest(rolesRoutes.createRole, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }],
    }),
    updateDatabaseRole: build.mutation<PgRole, { ref: string; id: number; body: RoleUpdate }>({
      query: ({ ref, id, body }) => routeRequest(rolesRoutes.updateRole, { params: { ref, id }, body }),
      invalidatesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }],
    }),
    deleteDatabaseRole: routeMutation(build, rolesRoutes.deleteRole, { invalidatesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }] }),
  }),
  overrideExisting: 'throw',
});

export const { useEditorRolesQuery, useCreateDatabaseRoleMutation, useUpdateDatabaseRoleMutation, useDeleteDatabaseRoleMutation } = editorRolesApi;
