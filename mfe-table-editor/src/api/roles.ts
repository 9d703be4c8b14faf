import { baseApi, routeRequest } from '@dash/shell-sdk';
import { rolesRoutes, type PgRole, type RoleCreate, type RoleUpdate, type RouteReply } from '@dash/contracts';

/** Database roles: for choosing a role to impersonate, and the database area's roles page. */
export const editorRolesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    editorRoles: build.query<RouteReply<typeof rolesRoutes.listRoles>, { ref: string }>({
      query: ({ ref }) => routeRequest(rolesRoutes.listRoles, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }],
    }),
    createDatabaseRole: build.mutation<PgRole, { ref: string; body: RoleCreate }>({
      query: ({ ref, body }) => routeRequest(rolesRoutes.createRole, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }],
    }),
    updateDatabaseRole: build.mutation<PgRole, { ref: string; id: number; body: RoleUpdate }>({
      query: ({ ref, id, body }) => routeRequest(rolesRoutes.updateRole, { params: { ref, id }, body }),
      invalidatesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }],
    }),
    deleteDatabaseRole: build.mutation<PgRole, { ref: string; id: number }>({
      query: ({ ref, id }) => routeRequest(rolesRoutes.deleteRole, { params: { ref, id } }),
      invalidatesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }],
    }),
  }),
});

export const { useEditorRolesQuery, useCreateDatabaseRoleMutation, useUpdateDatabaseRoleMutation, useDeleteDatabaseRoleMutation } = editorRolesApi;
