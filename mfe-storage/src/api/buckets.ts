import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { storageRoutes, type Bucket, type RouteBody } from '@dash/contracts';

type Ref = { ref: string };
type BucketArg = Ref & { id: string };

const bucketsTag = (ref: string) => [{ type: 'Buckets' as const, id: ref }];
/** The storage schema's policies: the same tag the policies area uses for that schema. */
export const storagePoliciesTag = (ref: string) => [{ type: 'Policies' as const, id: `${ref}:storage` }];

/** The project's buckets: list, create, edit, empty and delete. */
export const bucketsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Buckets', 'Policies'] }).injectEndpoints({
  endpoints: (build) => ({
    storageBuckets: routeQuery(build, storageRoutes.listBuckets, { providesTags: (_r, _e, { ref }) => bucketsTag(ref) }),
    storageCreateBucket: routeMutation(build, storageRoutes.createBucket, {
      parts: ({ ref, body }: Ref & { body: RouteBody<typeof storageRoutes.createBucket> }) => ({ params: { ref }, body }),
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
    storageUpdateBucket: routeMutation(build, storageRoutes.updateBucket, {
      parts: ({ ref, id, body }: BucketArg & { body: RouteBody<typeof storageRoutes.updateBucket> }) => ({ params: { ref, id }, body }),
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
    storageEmptyBucket: routeMutation(build, storageRoutes.emptyBucket),
    /** The service also drops the bucket's policies on storage.objects, so the storage policies refresh too. */
    storageDeleteBucket: routeMutation(build, storageRoutes.deleteBucket, {
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
