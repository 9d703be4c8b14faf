import { baseApi, routeRequest } from '@dash/shell-sdk';
import { platformRoutes, type RouteReply } from '@dash/contracts';

/** The organizations the signed-in user belongs to, with the role in each. */
export const organizationsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listOrganizations: build.query<RouteReply<typeof platformRoutes.listOrganizations>, void>({
      query: () => routeRequest(platformRoutes.listOrganizations),
    }),
  }),
});

export const { useListOrganizationsQuery } = organizationsApi;
