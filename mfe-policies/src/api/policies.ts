import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { pgMetaRoutes, policiesRoutes, type RouteBody } from '@dash/contracts';

type Ref = { ref: string };
/** Writes name the policy's schema: the list they refresh is per schema. */
type PolicyArg = Ref & { id: number; schema: string };

const schemaPolicies = (ref: string, schema: string) => [{ type: 'Policies' as const, id: `${ref}:${schema}` }];

/** The row-level security policies of one schema, their writes, and the preview before saving. */
export const rlsPoliciesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Policies'] }).injectEndpoints({
  endpoints: (build) => ({
    rlsPolicies: routeQuery(build, pgMetaRoutes.listPolicies, {
      parts: ({ ref, schema }: Ref & { schema: string }) => ({ params: { ref }, query: { included_schemas: schema } }),
      providesTags: (_r, _e, { ref, schema }) => schemaPolicies(ref, schema),
    }),
    createRlsPolicy: routeMutation(build, policiesRoutes.createPolicy, {
      parts: ({ ref, body }: Ref & { body: RouteBody<typeof policiesRoutes.createPolicy> }) => ({ params: { ref }, body }),
      invalidatesTags: (_r, error, { ref, body }) => (error ? [] : schemaPolicies(ref, body.schema ?? 'public')),
    }),
    updateRlsPolicy: routeMutation(build, policiesRoutes.updatePolicy, {
      parts: ({ ref, id, body }: PolicyArg & { body: RouteBody<typeof policiesRoutes.updatePolicy> }) => ({ params: { ref, id }, body }),
      invalidatesTags: (_r, error, { ref, schema }) => (error ? [] : schemaPolicies(ref, schema)),
    }),
    deleteRlsPolicy: routeMutation(build, policiesRoutes.deletePolicy, {
      parts: ({ ref, id }: PolicyArg) => ({ params: { ref, id } }),
      invalidatesTags: (_r, error, { ref, schema }) => (error ? [] : schemaPolicies(ref, schema)),
    }),
    previewRlsPolicy: routeMutation(build, policiesRoutes.previewPolicy, {
      parts: ({ ref, body }: Ref & { body: RouteBody<typeof policiesRoutes.previewPolicy> }) => ({ params: { ref }, body }),
    }),
  }),
  overrideExisting: 'throw',
});

export const { useRlsPoliciesQuery, useCreateRlsPolicyMutation, useUpdateRlsPolicyMutation, useDeleteRlsPolicyMutation, usePreviewRlsPolicyMutation } =
  rlsPoliciesApi;
