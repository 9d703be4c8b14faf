import { baseApi } from '@dash/shell-sdk';
import { routeQuery } from '@dash/shell-sdk/routes';
import { rolesRoutes } from '@dash/contracts';

/** The database's roles (`pg_` roles left out by the service), for the role picker and the preview. */
export const rlsRolesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Roles'] }).injectEndpoints({
  endpoints: (build) => ({
    rlsRoles: routeQuery(build, rolesRoutes.listRoles, { providesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }] }),
  }),
  overrideExisting: 'throw',
});

export const { useRlsRolesQuery } = rlsRolesApi;
