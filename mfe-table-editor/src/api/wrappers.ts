import { routeRequest } from '@dash/shell-sdk';
import { databasePlatformRoutes, type ForeignDataWrapper } from '@dash/contracts';
import { databaseApi } from './database';

/** Foreign data wrappers with their servers and foreign tables; enabling an extension (postgres_fdw) may add one. */
export const databaseWrappersApi = databaseApi.injectEndpoints({
  endpoints: (build) => ({
    databaseWrappers: build.query<ForeignDataWrapper[], { ref: string }>({
      query: ({ ref }) => routeRequest(databasePlatformRoutes.listWrappers, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [{ type: 'Extensions', id: ref }],
    }),
  }),
});

export const { useDatabaseWrappersQuery } = databaseWrappersApi;
