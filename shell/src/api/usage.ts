import { baseApi, routeRequest } from '@dash/shell-sdk';
import { organizationRoutes as routes, type RouteReply } from '@dash/contracts';

type Slug = { slug: string };

/** This month's usage per project, and the monthly statements (hosted only). */
export const usageApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getUsage: build.query<RouteReply<typeof routes.getUsage>, Slug & { projectRef?: string }>({
      query: ({ slug, projectRef }) => routeRequest(routes.getUsage, { params: { slug }, query: { projectRef } }),
      providesTags: (_result, _error, { slug }) => [{ type: 'Usage', id: slug }],
    }),
    listInvoices: build.query<RouteReply<typeof routes.listInvoices>, Slug>({
      query: ({ slug }) => routeRequest(routes.listInvoices, { params: { slug } }),
      providesTags: (_result, _error, { slug }) => [{ type: 'Usage', id: slug }],
    }),
  }),
});

export const { useGetUsageQuery, useListInvoicesQuery } = usageApi;
