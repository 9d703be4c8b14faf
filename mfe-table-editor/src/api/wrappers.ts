import { routeQuery } from '@dash/shell-sdk/routes';
import { databasePlatformRoutes } from '@dash/contracts';
import { databaseApi } from './database';

/** Foreign data wrappers with their servers and foreign tables; enabling an extension (postgres_fdw) may add one. */
export const databaseWrappersApi = databaseApi.injectEndpoints({
  endpoints: (build) => ({
    databaseWrappers: routeQuery(build, databasePlatformRoutes.listWrappers, {
      providesTags: (_r, _e, { ref }) => [{ type: 'Extensions', id: ref }],
    }),
  }),
  overrideExisting: 'throw',
});

export const { useDatabaseWrappersQuery } = databaseWrappersApi;
