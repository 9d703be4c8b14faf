import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { logTimeRangeToQuery, reportRoutes, type LogTimeRange, type RouteBody } from '@dash/contracts';

type Ref = { ref: string };
type ReportArg = Ref & { id: string };

/** The built-in reports' argument: the time range goes to the query string as the route spells it. */
const rangeParts = ({ ref, range }: Ref & { range: LogTimeRange }) => ({ params: { ref }, query: logTimeRangeToQuery(range) });

const listTag = (ref: string) => ({ type: 'Reports' as const, id: `${ref}:list` });
const reportTag = (ref: string, id: string) => ({ type: 'Reports' as const, id: `${ref}:${id}` });

/** The built-in reports (logs service and pg-meta) and the project's custom reports (platform content store). */
export const reportsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Reports'] }).injectEndpoints({
  endpoints: (build) => ({
    apiOverviewReport: routeQuery(build, reportRoutes.apiOverview, { parts: rangeParts }),
    storageReport: routeQuery(build, reportRoutes.storage, { parts: rangeParts }),
    databaseReport: routeQuery(build, reportRoutes.database),
    listReports: routeQuery(build, reportRoutes.listReports, { transformResponse: (reply) => reply.data, providesTags: (_r, _e, { ref }) => [listTag(ref)] }),
    getReport: routeQuery(build, reportRoutes.getReport, { providesTags: (_r, _e, { ref, id }) => [reportTag(ref, id)] }),
    /** The reply is a list whose first item is the report (table-editor spec §7). */
    createReport: routeMutation(build, reportRoutes.createReport, {
      parts: ({ ref, body }: Ref & { body: RouteBody<typeof reportRoutes.createReport> }) => ({ params: { ref }, body }),
      transformResponse: (reply) => reply[0]!,
      invalidatesTags: (_r, _e, { ref }) => [listTag(ref)],
    }),
    /** The reply replaces the cached report at once (a dragged block stays where it was dropped). */
    updateReport: routeMutation(build, reportRoutes.updateReport, {
      parts: ({ ref, id, body }: ReportArg & { body: RouteBody<typeof reportRoutes.updateReport> }) => ({ params: { ref, id }, body }),
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
    deleteReports: routeMutation(build, reportRoutes.deleteReports, { invalidatesTags: (_r, _e, { ref }) => [listTag(ref)] }),
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
