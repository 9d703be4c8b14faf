import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { pgMetaRoutes, policiesRoutes, rolesRoutes, type RouteBody } from '@dash/contracts';
import { storagePoliciesTag } from './buckets';

type Ref = { ref: string };

/** The policies of the storage schema (storage.objects and storage.buckets), their writes, and the roles they may target. */
export const storagePoliciesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Policies', 'Roles'] }).injectEndpoints({
  endpoints: (build) => ({
    storagePolicies: routeQuery(build, pgMetaRoutes.listPolicies, {
      parts: ({ ref }: Ref) => ({ params: { ref }, query: { included_schemas: 'storage' } }),
      providesTags: (_r, _e, { ref }) => storagePoliciesTag(ref),
    }),
    /** One call per policy of a batch: the dialog refreshes the list once, when the batch is done (`refreshStoragePolicies`). */
    storageCreatePolicy: routeMutation(build, policiesRoutes.createPolicy, {
      parts: ({ ref, body }: Ref & { body: RouteBody<typeof policiesRoutes.createPolicy> }) => ({ params: { ref }, body }),
    }),
    storageUpdatePolicy: routeMutation(build, policiesRoutes.updatePolicy, {
      parts: ({ ref, id, body }: Ref & { id: number; body: RouteBody<typeof policiesRoutes.updatePolicy> }) => ({ params: { ref, id }, body }),
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
