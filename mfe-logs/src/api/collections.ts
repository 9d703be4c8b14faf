import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { warehouseRoutes } from '@dash/contracts';

/** A project's event collections, and its warehouse tenant (presence and ingest limits). */
const collectionsTag = (ref: string) => ({ type: 'Logs' as const, id: `collections:${ref}` });

export const collectionsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Logs'] }).injectEndpoints({
  endpoints: (build) => ({
    warehouseTenant: routeQuery(build, warehouseRoutes.tenant, {
      // The spec's tenant cache: never stale, kept 2 hours.
      keepUnusedDataFor: 2 * 60 * 60,
    }),
    collections: routeQuery(build, warehouseRoutes.listCollections, { providesTags: (_r, _e, { ref }) => [collectionsTag(ref)] }),
    createCollection: routeMutation(build, warehouseRoutes.createCollection, { invalidatesTags: (_r, _e, { ref }) => [collectionsTag(ref)] }),
    updateCollection: routeMutation(build, warehouseRoutes.updateCollection, { invalidatesTags: (_r, _e, { ref }) => [collectionsTag(ref)] }),
    deleteCollection: routeMutation(build, warehouseRoutes.deleteCollection, { invalidatesTags: (_r, _e, { ref }) => [collectionsTag(ref)] }),
  }),
  overrideExisting: 'throw',
});

export const { useWarehouseTenantQuery, useCollectionsQuery, useCreateCollectionMutation, useUpdateCollectionMutation, useDeleteCollectionMutation } = collectionsApi;
