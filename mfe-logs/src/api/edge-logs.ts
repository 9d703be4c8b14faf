import { baseApi, routeRequest } from '@dash/shell-sdk';
import { logsRoutes, type RouteQuery, type RouteReply } from '@dash/contracts';

export const edgeLogsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    edgeLogs: build.query<RouteReply<typeof logsRoutes.edgeLogs>, { ref: string } & RouteQuery<typeof logsRoutes.edgeLogs>>({
      query: ({ ref, ...query }) => routeRequest(logsRoutes.edgeLogs, { params: { ref }, query }),
      providesTags: (_r, _e, { ref }) => [{ type: 'Logs', id: ref }],
    }),
  }),
});

export const { useEdgeLogsQuery } = edgeLogsApi;
