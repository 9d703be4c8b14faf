import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeRequest } from '@dash/shell-sdk/routes';
import { storageRoutes, type Bucket, type RouteBody, type RouteReply } from '@dash/contracts';

type Ref = { ref: string };
type BucketArg = Ref & { id: string };

const bucketsTag = (ref: string) => [{ type: 'Buckets' as const, id: ref }];
/** The storage schema's policies: the same tag the policies area uses for that schema. */
export const storagePoliciesTag = (ref: string) => [{ type: 'Policies' as const, id: `${ref}:storage` }];

/** The project's buckets: list, create, edit, empty and delete. */
export const bucketsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Buckets', 'Policies'] }).injectEndpoints({
  endpoints: (build) => ({
    storageBuckets: routeQuery(build, storageRoutes.listBuckets, { providesTags: (_r, _e, { ref }) => bucketsTag(ref) }),
    storageCreateBucket: build.mutation<RouteReply<typeof storageRoutes.createBucket>, Ref & { body: RouteBody<typeof storageRoutes.createBucket> }>({
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
      invalidatesTags: (_r, error, { ref }) => (error ? [] : bucketsTag(ref)),
    }),
    storageUpdateBucket: build.mutation<RouteReply<typeof storageRoutes.updateBucket>, BucketArg & { body: RouteBody<typeof storageRoutes.updateBucket> }>({
      query: ({ ref, id, body }) => routeRequest(storageRoutes.updateBucket, { params: { ref, id }, body }),
      async onQueryStarted({ ref }, { dispatch, queryFulfilled }) {
        try {
          const { data: bucket } = await queryFulfilled;
          dispatch(bucketsApi.util.updateQueryData('storageBuckets', { ref }, (draft) => draft.map((b): Bucket => (b.id === bucket.id ? bucket : b))));
        } catch {
          // The caller shows the failure.
        }
      },
      invalidatesTags: (_r, error, { ref }) => (error ? [] : bucketsTag(ref)),
    }),
    storageEmptyBucket: build.mutation<RouteReply<typeof storageRoutes.emptyBucket>, BucketArg>({
      query: ({ ref, id }) => routeRequest(storageRoutes.emptyBucket, { params: { ref, id } }),
    }),
    /** The service also drops the bucket's policies on storage.objects, so the storage policies refresh too. */
    storageDeleteBucket: build.mutation<RouteReply<typeof storageRoutes.deleteBucket>, BucketArg>({
      query: ({ ref, id }) => routeRequest(storageRoutes.deleteBucket, { params: { ref, id } }),
      async onQueryStarted({ ref, id }, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
          dispatch(bucketsApi.util.updateQueryData('storageBuckets', { ref }, (draft) => draft.filter((b) => b.id !== id)));
        } catch {
          // The caller shows the failure.
        }
      },
      invalidatesTags: (_r, error, { ref }) => (error ? [] : [...bucketsTag(ref), ...storagePoliciesTag(ref)]),
    }),
  }),
  overrideExisting: 'throw',
});

export const {
  useStorageBucketsQuery,
  useStorageCreateBucketMutation,
  useStorageUpdateBucketMutation,
  useStorageEmptyBucketMutation,
  useStorageDeleteBucketMutation,
} = bucketsApi;
