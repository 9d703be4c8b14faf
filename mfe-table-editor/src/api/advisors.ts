import { baseApi, routeRequest } from '@dash/shell-sdk';
import { advisorRoutes, type Lint, type QueryPerformanceOrder, type StatementsState } from '@dash/contracts';

type Ref = { ref: string };

const api = baseApi.enhanceEndpoints({ addTagTypes: ['QueryPerformance'] });
const statementsTag = (ref: string) => ({ type: 'QueryPerformance' as const, id: ref });

/** The advisors' lints and query performance (pg-meta). */
export const advisorsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Both advisors read one run of every lint; each page keeps its category. */
    lints: build.query<Lint[], Ref>({
      query: ({ ref }) => routeRequest(advisorRoutes.lints, { params: { ref } }),
    }),
    queryPerformance: build.query<StatementsState, Ref & { order: QueryPerformanceOrder }>({
      query: ({ ref, order }) => routeRequest(advisorRoutes.queryPerformance, { params: { ref }, query: { order } }),
      providesTags: (_r, _e, { ref }) => [statementsTag(ref)],
    }),
    resetQueryPerformance: build.mutation<unknown, Ref>({
      query: ({ ref }) => routeRequest(advisorRoutes.resetQueryPerformance, { params: { ref } }),
      invalidatesTags: (_r, _e, { ref }) => [statementsTag(ref)],
    }),
  }),
});

export const { useLintsQuery, useQueryPerformanceQuery, useResetQueryPerformanceMutation } = advisorsApi;
