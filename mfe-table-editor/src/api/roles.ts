import { baseApi, routeRequest } from '@dash/shell-sdk';
import { rolesRoutes, type RouteReply } from '@dash/contracts';

/** Database roles, for choosing a role to impersonate. */
export const editorRolesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    editorRoles: build.query<RouteReply<typeof rolesRoutes.listRoles>, { ref: string }>({
      query: ({ ref }) => routeRequest(rolesRoutes.listRoles, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }],
    }),
  }),
});

export const { useEditorRolesQuery } = editorRolesApi;
