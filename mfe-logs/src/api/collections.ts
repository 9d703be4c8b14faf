import { baseApi, routeRequest } from '@dash/shell-sdk';
import { warehouseRoutes, type RouteBody, type RouteReply } from '@dash/contracts';

/** A project's event collections, and its warehouse tenant (presence and ingest limits). */
const collectionsTag = (ref: string) => ({ type: 'Logs' as const, id: `collections:${ref}` });

export const collectionsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    warehouseTenant: build.query<RouteReply<typeof warehouseRoutes.tenant>, { ref: string }>({
      query: ({ ref }) => routeRequest(warehouseRoutes.tenant, { params: { ref } }),
      // The spec's tenant cache: never stale, kept 2 hours.
      keepUnusedDataFor: 2 * 60 * 60,
    }),
    collections: build.query<RouteReply<typeof warehouseRoutes.listCollections>, { ref: string }>({
      query: ({ ref }) => routeRequest(warehouseRoutes.listCollections, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [collectionsTag(ref)],
    }),
    createCollection: build.mutation<RouteReply<typeof warehouseRoutes.createCollection>, { ref: string } & RouteBody<typeof warehouseRoutes.createCollection>>({
      query: ({ ref, ...body }) => routeRequest(warehouseRoutes.createCollection, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [collectionsTag(ref)],
    }),
    updateCollection: build.mutation<
      RouteReply<typeof warehouseRoutes.updateCollection>,
      { ref: string; token: string } & RouteBody<typeof warehouseRoutes.updateCollection>
    >({
      query: ({ ref, token, ...body }) => routeRequest(warehouseRoutes.updateCollection, { params: { ref, token }, body }),
      invalidatesTags: (_r, _e, { ref }) => [collectionsTag(ref)],
    }),
    deleteCollection: build.mutation<RouteReply<typeof warehouseRoutes.deleteCollection>, { ref: string; token: string }>({
      query: ({ ref, token }) => routeRequest(warehouseRoutes.deleteCollection, { params: { ref, token } }),
      invalidatesTags: (_r, _e, { ref }) => [collectionsTag(ref)],
    }),
  }),
});

export const { useWarehouseTenantQuery, useCollectionsQuery, useCreateCollectionMutation, useUpdateCollectionMutation, useDeleteCollectionMutation } = collectionsApi;
