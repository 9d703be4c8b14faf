import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { warehouseRoutes } from '@dash/contracts';

const tokensTag = (ref: string) => ({ type: 'Logs' as const, id: `warehouse-tokens:${ref}` });

/** A project's warehouse access tokens (ingest credentials); the secret comes back once, from create. */
export const warehouseTokensApi = baseApi.enhanceEndpoints({ addTagTypes: ['Logs'] }).injectEndpoints({
  endpoints: (build) => ({
    warehouseAccessTokens: routeQuery(build, warehouseRoutes.listAccessTokens, { providesTags: (_r, _e, { ref }) => [tokensTag(ref)] }),
    createWarehouseAccessToken: routeMutation(build, warehouseRoutes.createAccessToken, { invalidatesTags: (_r, _e, { ref }) => [tokensTag(ref)] }),
    deleteWarehouseAccessToken: routeMutation(build, warehouseRoutes.deleteAccessToken, {
      parts: ({ ref, id }: { ref: string; id: string }) => ({ params: { ref, token: id } }),
      invalidatesTags: (_r, _e, { ref }) => [tokensTag(ref)],
    }),
  }),
  overrideExisting: 'throw',
});

export const { useWarehouseAccessTokensQuery, useCreateWarehouseAccessTokenMutation, useDeleteWarehouseAccessTokenMutation } = warehouseTokensApi;
