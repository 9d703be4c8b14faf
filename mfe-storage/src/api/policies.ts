import { baseApi, routeRequest } from '@dash/shell-sdk';
import { pgMetaRoutes, policiesRoutes, rolesRoutes, type RouteBody, type RouteReply } from '@dash/contracts';
import { storagePoliciesTag } from './buckets';

type Ref = { ref: string };

/** The policies of the storage schema (storage.objects and storage.buckets), their writes, and the roles they may target. */
export const storagePoliciesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    storagePolicies: build.query<RouteReply<typeof pgMetaRoutes.listPolicies>, Ref>({
      query: ({ ref }) => routeRequest(pgMetaRoutes.listPolicies, { params: { ref }, query: { included_schemas: 'storage' } }),
      providesTags: (_r, _e, { ref }) => storagePoliciesTag(ref),
    }),
    /** One call per policy of a batch: the dialog refreshes the list once, when the batch is done (`refreshStoragePolicies`). */
    createStoragePolicy: build.mutation<RouteReply<typeof policiesRoutes.createPolicy>, Ref & { body: RouteBody<typeof policiesRoutes.createPolicy> }>({
      query: ({ ref, body }) => routeRequest(policiesRoutes.createPolicy, { params: { ref }, body }),
    }),
    updateStoragePolicy: build.mutation<RouteReply<typeof policiesRoutes.updatePolicy>, Ref & { id: number; body: RouteBody<typeof policiesRoutes.updatePolicy> }>({
      query: ({ ref, id, body }) => routeRequest(policiesRoutes.updatePolicy, { params: { ref, id }, body }),
      invalidatesTags: (_r, error, { ref }) => (error ? [] : storagePoliciesTag(ref)),
    }),
    deleteStoragePolicy: build.mutation<RouteReply<typeof policiesRoutes.deletePolicy>, Ref & { id: number }>({
      query: ({ ref, id }) => routeRequest(policiesRoutes.deletePolicy, { params: { ref, id } }),
      invalidatesTags: (_r, error, { ref }) => (error ? [] : storagePoliciesTag(ref)),
    }),
    storagePolicyRoles: build.query<RouteReply<typeof rolesRoutes.listRoles>, Ref>({
      query: ({ ref }) => routeRequest(rolesRoutes.listRoles, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }],
    }),
  }),
});

export const {
  useStoragePoliciesQuery,
  useCreateStoragePolicyMutation,
  useUpdateStoragePolicyMutation,
  useDeleteStoragePolicyMutation,
  useStoragePolicyRolesQuery,
} = storagePoliciesApi;

export const refreshStoragePolicies = (ref: string) => storagePoliciesApi.util.invalidateTags(storagePoliciesTag(ref));
