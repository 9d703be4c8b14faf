import { baseApi } from '@dash/shell-sdk';
import { routeRequest } from '@dash/shell-sdk/routes';
import { logsRoutes, type RouteParams, type RouteQuery, type RouteReply } from '@dash/contracts';

type ListArgs = RouteParams<typeof logsRoutes.sourceEvents> & RouteQuery<typeof logsRoutes.sourceEvents>;
type DetailArgs = RouteParams<typeof logsRoutes.sourceEvent> & RouteQuery<typeof logsRoutes.sourceEvent>;

/** A log source's events of a project (one page per call) and one event's detail. */
export const logEventsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Logs'] }).injectEndpoints({
  endpoints: (build) => ({
    sourceEvents: build.query<RouteReply<typeof logsRoutes.sourceEvents>, ListArgs>({
      query: ({ ref, source, ...query }) => routeRequest(logsRoutes.sourceEvents, { params: { ref, source }, query }),
      providesTags: (_r, _e, { ref }) => [{ type: 'Logs', id: ref }],
    }),
    sourceEvent: build.query<RouteReply<typeof logsRoutes.sourceEvent>, DetailArgs>({
      query: ({ ref, source, id, ...query }) => routeRequest(logsRoutes.sourceEvent, { params: { ref, source, id }, query }),
    }),
  }),
  overrideExisting: 'throw',
});

export const { useSourceEventsQuery, useLazySourceEventsQuery, useSourceEventQuery } = logEventsApi;
