import { baseApi } from '@dash/shell-sdk';
import { routeQuery } from '@dash/shell-sdk/routes';
import { logsRoutes } from '@dash/contracts';

/** A log source's events of a project (one page per call) and one event's detail. */
export const logEventsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Logs'] }).injectEndpoints({
  endpoints: (build) => ({
    sourceEvents: routeQuery(build, logsRoutes.sourceEvents, { providesTags: (_r, _e, { ref }) => [{ type: 'Logs', id: ref }] }),
    sourceEvent: routeQuery(build, logsRoutes.sourceEvent),
  }),
  overrideExisting: 'throw',
});

export const { useSourceEventsQuery, useLazySourceEventsQuery, useSourceEventQuery } = logEventsApi;
