import { baseApi, routeRequest } from '@dash/shell-sdk';
import { storageRoutes, type RouteBody, type RouteReply } from '@dash/contracts';

/** The project's buckets: list and create. */
export const bucketsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    storageBuckets: build.query<RouteReply<typeof storageRoutes.listBuckets>, { ref: string }>({
      query: ({ ref }) => routeRequest(storageRoutes.listBuckets, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [{ type: 'Buckets', id: ref }],
    }),
    storageCreateBucket: build.mutation<RouteReply<typeof storageRoutes.createBucket>, { ref: string; body: RouteBody<typeof storageRoutes.createBucket> }>({
      query: ({ ref, body }) => routeRequest(storageRoutes.createBucket, { params: { ref }, body }),
      // The new bucket's page reads the list: add the bucket at once, then refetch to be sure.
      async onQueryStarted({ ref }, { dispatch, queryFulfilled }) {
        try {
          const { data: bucket } = await queryFulfilled;
          dispatch(
            bucketsApi.util.updateQueryData('storageBuckets', { ref }, (draft) => {
              if (!draft.some((b) => b.id === bucket.id)) draft.push(bucket);
            }),
          );
        } catch {
          // The caller shows the failure.
        }
      },
      invalidatesTags: (_r, error, { ref }) => (error ? [] : [{ type: 'Buckets', id: ref }]),
    }),
  }),
});

export const { useStorageBucketsQuery, useStorageCreateBucketMutation } = bucketsApi;
