import { baseApi, routeRequest } from '@dash/shell-sdk';
import { rolesRoutes, type RouteReply } from '@dash/contracts';

/** The database's roles (`pg_` roles left out by the service), for the role picker and the preview. */
export const rlsRolesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    rlsRoles: build.query<RouteReply<typeof rolesRoutes.listRoles>, { ref: string }>({
      query: ({ ref }) => routeRequest(rolesRoutes.listRoles, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }],
    }),
  }),
});

export const { useRlsRolesQuery } = rlsRolesApi;
