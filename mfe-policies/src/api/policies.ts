import { baseApi } from '@dash/shell-sdk';
import { routeRequest } from '@dash/shell-sdk/routes';
import { pgMetaRoutes, policiesRoutes, type RouteBody, type RouteReply } from '@dash/contracts';

type Ref = { ref: string };
/** Writes name the policy's schema: the list they refresh is per schema. */
type PolicyArg = Ref & { id: number; schema: string };

const schemaPolicies = (ref: string, schema: string) => [{ type: 'Policies' as const, id: `${ref}:${schema}` }];

/** The row-level security policies of one schema, their writes, and the preview before saving. */
export const rlsPoliciesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Policies'] }).injectEndpoints({
  endpoints: (build) => ({
    rlsPolicies: build.query<RouteReply<typeof pgMetaRoutes.listPolicies>, Ref & { schema: string }>({
      query: ({ ref, schema }) => routeRequest(pgMetaRoutes.listPolicies, { params: { ref }, query: { included_schemas: schema } }),
      providesTags: (_r, _e, { ref, schema }) => schemaPolicies(ref, schema),
    }),
    createRlsPolicy: build.mutation<RouteReply<typeof policiesRoutes.createPolicy>, Ref & { body: RouteBody<typeof policiesRoutes.createPolicy> }>({
      query: ({ ref, body }) => routeRequest(policiesRoutes.createPolicy, { params: { ref }, body }),
      invalidatesTags: (_r, error, { ref, body }) => (error ? [] : schemaPolicies(ref, body.schema ?? 'public')),
    }),
    updateRlsPolicy: build.mutation<RouteReply<typeof policiesRoutes.updatePolicy>, PolicyArg & { body: RouteBody<typeof policiesRoutes.updatePolicy> }>({
      query: ({ ref, id, body }) => routeRequest(policiesRoutes.updatePolicy, { params: { ref, id }, body }),
      invalidatesTags: (_r, error, { ref, schema }) => (error ? [] : schemaPolicies(ref, schema)),
    }),
    deleteRlsPolicy: build.mutation<RouteReply<typeof policiesRoutes.deletePolicy>, PolicyArg>({
      query: ({ ref, id }) => routeRequest(policiesRoutes.deletePolicy, { params: { ref, id } }),
      invalidatesTags: (_r, error, { ref, schema }) => (error ? [] : schemaPolicies(ref, schema)),
    }),
    previewRlsPolicy: build.mutation<RouteReply<typeof policiesRoutes.previewPolicy>, Ref & { body: RouteBody<typeof policiesRoutes.previewPolicy> }>({
      query: ({ ref, body }) => routeRequest(policiesRoutes.previewPolicy, { params: { ref }, body }),
    }),
  }),
  overrideExisting: 'throw',
});

export const { useRlsPoliciesQuery, useCreateRlsPolicyMutation, useUpdateRlsPolicyMutation, useDeleteRlsPolicyMutation, usePreviewRlsPolicyMutation } =
  rlsPoliciesApi;
