import { baseApi } from '@dash/shell-sdk';
import { routeMutation, routeQuery } from '@dash/shell-sdk/routes';
import { authUsersRoutes, dataApiRoutes } from '@dash/contracts';

/**
 * What GraphiQL's role picker reads: the project's auth users to run as (pg-meta), and a short-lived token
 * for the chosen one (platform). The API keys come from the API docs' endpoint (`useApiDocsKeysQuery`).
 */
export const graphiqlApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    graphiqlAuthUsers: routeQuery(build, authUsersRoutes.listAuthUsers, { keepUnusedDataFor: 30 }),
    mintUserToken: routeMutation(build, dataApiRoutes.mintUserToken),
  }),
  overrideExisting: 'throw',
});

export const { useGraphiqlAuthUsersQuery, useMintUserTokenMutation } = graphiqlApi;
