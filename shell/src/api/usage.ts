import { baseApi } from '@dash/shell-sdk';
import { routeQuery } from '@dash/shell-sdk/routes';
import { organizationRoutes as routes } from '@dash/contracts';

/** This month's usage per project, and the monthly statements (hosted only). */
export const usageApi = baseApi.enhanceEndpoints({ addTagTypes: ['Usage'] }).injectEndpoints({
  endpoints: (build) => ({
    getUsage: routeQuery(build, routes.getUsage, { providesTags: (_result, _error, { slug }) => [{ type: 'Usage', id: slug }] }),
    listInvoices: routeQuery(build, routes.listInvoices, { providesTags: (_result, _error, { slug }) => [{ type: 'Usage', id: slug }] }),
  }),
  overrideExisting: 'throw',
});

export const { useGetUsageQuery, useListInvoicesQuery } = usageApi;
