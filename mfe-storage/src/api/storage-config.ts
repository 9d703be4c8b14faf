import { baseApi, routeRequest } from '@dash/shell-sdk';
import { platformRoutes, type RouteBody, type RouteReply } from '@dash/contracts';

type Ref = { ref: string };
const storageConfigTag = (ref: string) => [{ type: 'Project' as const, id: `${ref}:storage-config` }];

/** The project's upload size limit (fileSizeLimit in bytes) and whether it is on the free plan. */
export const storageConfigApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    storageConfig: build.query<RouteReply<typeof platformRoutes.getStorageConfig>, Ref>({
      query: ({ ref }) => routeRequest(platformRoutes.getStorageConfig, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => storageConfigTag(ref),
    }),
    updateStorageConfig: build.mutation<RouteReply<typeof platformRoutes.updateStorageConfig>, Ref & { body: RouteBody<typeof platformRoutes.updateStorageConfig> }>({
      query: ({ ref, body }) => routeRequest(platformRoutes.updateStorageConfig, { params: { ref }, body }),
      // The reply is the saved config: put it in the cache so the explorer's upload limit follows at once.
      async onQueryStarted({ ref }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(storageConfigApi.util.upsertQueryData('storageConfig', { ref }, data));
        } catch {
          // The caller shows the failure.
        }
      },
    }),
  }),
});

export const { useStorageConfigQuery, useUpdateStorageConfigMutation } = storageConfigApi;
