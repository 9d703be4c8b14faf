import { baseApi, routeRequest } from '@dash/shell-sdk';
import { organizationRoutes as routes, type RouteBody, type RouteReply } from '@dash/contracts';

type Slug = { slug: string };

/** The OAuth apps an organization registered. */
export const oauthAppsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listOAuthApps: build.query<RouteReply<typeof routes.listOAuthApps>, Slug>({
      query: ({ slug }) => routeRequest(routes.listOAuthApps, { params: { slug } }),
      providesTags: (_result, _error, { slug }) => [{ type: 'OAuthApps', id: slug }],
    }),
    createOAuthApp: build.mutation<RouteReply<typeof routes.createOAuthApp>, Slug & RouteBody<typeof routes.createOAuthApp>>({
      query: ({ slug, ...body }) => routeRequest(routes.createOAuthApp, { params: { slug }, body }),
      invalidatesTags: (_result, _error, { slug }) => [{ type: 'OAuthApps', id: slug }, 'Audit'],
    }),
    deleteOAuthApp: build.mutation<RouteReply<typeof routes.deleteOAuthApp>, Slug & { id: string }>({
      query: ({ slug, id }) => routeRequest(routes.deleteOAuthApp, { params: { slug, id } }),
      invalidatesTags: (_result, _error, { slug }) => [{ type: 'OAuthApps', id: slug }, 'Audit'],
    }),
  }),
});

export const { useListOAuthAppsQuery, useCreateOAuthAppMutation, useDeleteOAuthAppMutation } = oauthAppsApi;
