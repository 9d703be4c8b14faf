import { baseApi } from '@dash/shell-sdk';
import { routeQuery } from '@dash/shell-sdk/routes';
import { platformRoutes } from '@dash/contracts';

/** The organizations the signed-in user belongs to, with the role in each. */
export const organizationsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listOrganizations: routeQuery(build, platformRoutes.listOrganizations),
  }),
  overrideExisting: 'throw',
});

export const { useListOrganizationsQuery } = organizationsApi;
