import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { organizationRoutes as routes } from '@dash/contracts';

/** The OAuth apps an organization registered. */
export const oauthAppsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Audit', 'OAuthApps'] }).injectEndpoints({
  endpoints: (build) => ({
    listOAuthApps: routeQuery(build, routes.listOAuthApps, { providesTags: (_result, _error, { slug }) => [{ type: 'OAuthApps', id: slug }] }),
    createOAuthApp: routeMutation(build, routes.createOAuthApp, {
      invalidatesTags: (_result, _error, { slug }) => [{ type: 'OAuthApps', id: slug }, 'Audit'],
    }),
    deleteOAuthApp: routeMutation(build, routes.deleteOAuthApp, {
      invalidatesTags: (_result, _error, { slug }) => [{ type: 'OAuthApps', id: slug }, 'Audit'],
    }),
  }),
  overrideExisting: 'throw',
});

export const { useListOAuthAppsQuery, useCreateOAuthAppMutation, useDeleteOAuthAppMutation } = oauthAppsApi;
