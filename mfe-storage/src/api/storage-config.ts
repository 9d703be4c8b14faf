import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { platformRoutes, type RouteBody } from '@dash/contracts';

type Ref = { ref: string };
const storageConfigTag = (ref: string) => [{ type: 'Project' as const, id: `${ref}:storage-config` }];

/** The project's upload size limit (fileSizeLimit in bytes) and whether it is on the free plan. */
export const storageConfigApi = baseApi.enhanceEndpoints({ addTagTypes: ['Project'] }).injectEndpoints({
  endpoints: (build) => ({
    storageConfig: routeQuery(build, platformRoutes.getStorageConfig, { providesTags: (_r, _e, { ref }) => storageConfigTag(ref) }),
    storageUpdateConfig: routeMutation(build, platformRoutes.updateStorageConfig, {
      parts: ({ ref, body }: Ref & { body: RouteBody<typeof platformRoutes.updateStorageConfig> }) => ({ params: { ref }, body }),
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
  overrideExisting: 'throw',
});

export const { useStorageConfigQuery, useStorageUpdateConfigMutation } = storageConfigApi;
