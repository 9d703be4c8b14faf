import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { advisorRoutes } from '@dash/contracts';

const statementsTag = (ref: string) => ({ type: 'QueryPerformance' as const, id: ref });

/** The advisors' lints and query performance (pg-meta). */
export const advisorsApi = baseApi.enhanceEndpoints({ addTagTypes: ['QueryPerformance'] }).injectEndpoints({
  endpoints: (build) => ({
    /** Both advisors read one run of every lint; each page keeps its category. */
    lints: routeQuery(build, advisorRoutes.lints),
    queryPerformance: routeQuery(build, advisorRoutes.queryPerformance, { providesTags: (_r, _e, { ref }) => [statementsTag(ref)] }),
    resetQueryPerformance: routeMutation(build, advisorRoutes.resetQueryPerformance, { invalidatesTags: (_r, _e, { ref }) => [statementsTag(ref)] }),
  }),
  overrideExisting: 'throw',
});

export const { useLintsQuery, useQueryPerformanceQuery, useResetQueryPerformanceMutation } = advisorsApi;
