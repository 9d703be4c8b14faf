import { baseApi, routeRequest } from '@dash/shell-sdk';
import { warehouseRoutes, type RouteBody, type RouteReply } from '@dash/contracts';

const tokensTag = (ref: string) => ({ type: 'Logs' as const, id: `warehouse-tokens:${ref}` });

/** A project's warehouse access tokens (ingest credentials); the secret comes back once, from create. */
export const warehouseTokensApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    warehouseAccessTokens: build.query<RouteReply<typeof warehouseRoutes.listAccessTokens>, { ref: string }>({
      query: ({ ref }) => routeRequest(warehouseRoutes.listAccessTokens, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [tokensTag(ref)],
    }),
    createWarehouseAccessToken: build.mutation<
      RouteReply<typeof warehouseRoutes.createAccessToken>,
      { ref: string } & RouteBody<typeof warehouseRoutes.createAccessToken>
    >({
      query: ({ ref, ...body }) => routeRequest(warehouseRoutes.createAccessToken, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref }) => [tokensTag(ref)],
    }),
    deleteWarehouseAccessToken: build.mutation<RouteReply<typeof warehouseRoutes.deleteAccessToken>, { ref: string; id: string }>({
      query: ({ ref, id }) => routeRequest(warehouseRoutes.deleteAccessToken, { params: { ref, token: id } }),
      invalidatesTags: (_r, _e, { ref }) => [tokensTag(ref)],
    }),
  }),
});

export const { useWarehouseAccessTokensQuery, useCreateWarehouseAccessTokenMutation, useDeleteWarehouseAccessTokenMutation } = warehouseTokensApi;
