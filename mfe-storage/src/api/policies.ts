import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation, routeRequest } from '@dash/shell-sdk/routes';
import { pgMetaRoutes, policiesRoutes, rolesRoutes, type RouteBody, type RouteReply } from '@dash/contracts';
import { storagePoliciesTag } from './buckets';

type Ref = { ref: string };

/** The policies of the storage schema (storage.objects and storage.buckets), their writes, and the roles they may target. */
export const storagePoliciesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Policies', 'Roles'] }).injectEndpoints({
  endpoints: (build) => ({
    storagePolicies: build.query<RouteReply<typeof pgMetaRoutes.listPolicies>, Ref>({
      query: ({ ref }) => routeRequest(pgMetaRoutes.listPolicies, { params: { ref }, query: { included_schemas: 'storage' } }),
      providesTags: (_r, _e, { ref }) => storagePoliciesTag(ref),
    }),
    /** One call per policy of a batch: the dialog refreshes the list once, when the batch is done (`refreshStoragePolicies`). */
    storageCreatePolicy: build.mutation<RouteReply<typeof policiesRoutes.createPolicy>, Ref & { body: RouteBody<typeof policiesRoutes.createPolicy> }>({
      query: ({ ref, body }) => routeRequest(policiesRoutes.createPolicy, { params: { ref }, body }),
    }),
    storageUpdatePolicy: build.mutation<RouteReply<typeof policiesRoutes.updatePolicy>, Ref & { id: number; body: RouteBody<typeof policiesRoutes.updatePolicy> }>({
      query: ({ ref, id, body }) => routeRequest(policiesRoutes.updatePolicy, { params: { ref, id }, body }),
      invalidatesTags: (_r, error, { ref }) => (error ? [] : storagePoliciesTag(ref)),
    }),
    storageDeletePolicy: routeMutation(build, policiesRoutes.deletePolicy, {
      invalidatesTags: (_r, error, { ref }) => (error ? [] : storagePoliciesTag(ref)),
    }),
    storagePolicyRoles: routeQuery(build, rolesRoutes.listRoles, { providesTags: (_r, _e, { ref }) => [{ type: 'Roles', id: ref }] }),
  }),
  overrideExisting: 'throw',
});

export const {
  useStoragePoliciesQuery,
  useStorageCreatePolicyMutation,
  useStorageUpdatePolicyMutation,
  useStorageDeletePolicyMutation,
  useStoragePolicyRolesQuery,
} = storagePoliciesApi;

export const refreshStoragePolicies = (ref: string) => storagePoliciesApi.util.invalidateTags(storagePoliciesTag(ref));
