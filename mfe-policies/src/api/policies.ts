import { baseApi, routeRequest } from '@dash/shell-sdk';
import { pgMetaRoutes, type RouteReply } from '@dash/contracts';

/** The row-level security policies of one schema. */
export const rlsPoliciesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    rlsPolicies: build.query<RouteReply<typeof pgMetaRoutes.listPolicies>, { ref: string; schema: string }>({
      query: ({ ref, schema }) => routeRequest(pgMetaRoutes.listPolicies, { params: { ref }, query: { included_schemas: schema } }),
      providesTags: (_r, _e, { ref, schema }) => [{ type: 'Policies', id: `${ref}:${schema}` }],
    }),
  }),
});

export const { useRlsPoliciesQuery } = rlsPoliciesApi;
