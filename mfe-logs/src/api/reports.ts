import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeRequest } from '@dash/shell-sdk/routes';
import {
  logTimeRangeToQuery,
  reportRoutes,
  type CustomReport,
  type LogTimeRange,
  type RouteBody,
  type RouteReply,
} from '@dash/contracts';

type Ref = { ref: string };
type ReportArg = Ref & { id: string };

const listTag = (ref: string) => ({ type: 'Reports' as const, id: `${ref}:list` });
const reportTag = (ref: string, id: string) => ({ type: 'Reports' as const, id: `${ref}:${id}` });

/** The built-in reports (logs service and pg-meta) and the project's custom reports (platform content store). */
export const reportsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Reports'] }).injectEndpoints({
  endpoints: (build) => ({
    apiOverviewReport: build.query<RouteReply<typeof reportRoutes.apiOverview>, Ref & { range: LogTimeRange }>({
      query: ({ ref, range }) => routeRequest(reportRoutes.apiOverview, { params: { ref }, query: logTimeRangeToQuery(range) }),
    }),
    storageReport: build.query<RouteReply<typeof reportRoutes.storage>, Ref & { range: LogTimeRange }>({
      query: ({ ref, range }) => routeRequest(reportRoutes.storage, { params: { ref }, query: logTimeRangeToQuery(range) }),
    }),
    databaseReport: routeQuery(build, reportRoutes.database),
    listReports: build.query<CustomReport[], Ref>({
      query: ({ ref }) => routeRequest(reportRoutes.listReports, { params: { ref } }),
      transformResponse: (reply: RouteReply<typeof reportRoutes.listReports>) => reply.data,
      providesTags: (_r, _e, { ref }) => [listTag(ref)],
    }),
    getReport: build.query<CustomReport, ReportArg>({
      query: ({ ref, id }) => routeRequest(reportRoutes.getReport, { params: { ref, id } }),
      providesTags: (_r, _e, { ref, id }) => [reportTag(ref, id)],
    }),
    /** The reply is a list whose first item is the report (table-editor spec §7). */
    createReport: build.mutation<CustomReport, Ref & { body: RouteBody<typeof reportRoutes.createReport> }>({
      query: ({ ref, body }) => routeRequest(reportRoutes.createReport, { params: { ref }, body }),
      transformResponse: (reply: RouteReply<typeof reportRoutes.createReport>) => reply[0]!,
      invalidatesTags: (_r, _e, { ref }) => [listTag(ref)],
    }),
    /** The reply replaces the cached report at once (a dragged block stays where it was dropped). */
    updateReport: build.mutation<CustomReport, ReportArg & { body: RouteBody<typeof reportRoutes.updateReport> }>({
      query: ({ ref, id, body }) => routeRequest(reportRoutes.updateReport, { params: { ref, id }, body }),
      onQueryStarted: async ({ ref, id, body }, { dispatch, queryFulfilled }) => {
        // Optimistic: the new order or name shows while the request runs, and is undone if it fails.
        const patch = dispatch(reportsApi.util.updateQueryData('getReport', { ref, id }, (draft) => Object.assign(draft, body.content ? { content: body.content } : {}, body.name ? { name: body.name } : {})));
        try {
          const { data } = await queryFulfilled;
          dispatch(reportsApi.util.upsertQueryData('getReport', { ref, id }, data));
        } catch {
          patch.undo();
        }
      },
      invalidatesTags: (_r, _e, { ref }) => [listTag(ref)],
    }),
    deleteReports: build.mutation<RouteReply<typeof reportRoutes.deleteReports>, Ref & { ids: string[] }>({
      query: ({ ref, ids }) => routeRequest(reportRoutes.deleteReports, { params: { ref }, body: { ids } }),
      invalidatesTags: (_r, _e, { ref }) => [listTag(ref)],
    }),
  }),
  overrideExisting: 'throw',
});

export const {
  useApiOverviewReportQuery,
  useStorageReportQuery,
  useDatabaseReportQuery,
  useListReportsQuery,
  useGetReportQuery,
  useCreateReportMutation,
  useUpdateReportMutation,
  useDeleteReportsMutation,
} = reportsApi;
