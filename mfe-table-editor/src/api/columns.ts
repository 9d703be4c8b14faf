import { baseApi } from '@dash/shell-sdk';
import { routeRequest } from '@dash/shell-sdk/routes';
import { tableEditorRoutes, type ColumnCreate, type RouteBody, type RouteReply } from '@dash/contracts';

type Ref = { ref: string };
/** Column writes name their table so the table, its rows and its column list refresh. */
type ColumnArg = Ref & { id: string; tableId: number };

const tableTags = (ref: string, tableId: number) => [
  { type: 'Tables' as const, id: `${ref}:${tableId}` },
  { type: 'Rows' as const, id: `${ref}:${tableId}` },
  { type: 'Columns' as const, id: `${ref}:${tableId}` },
];

/** Columns of one table (the foreign-key picker) and the column form's writes. */
export const editorColumnsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Columns', 'Rows', 'Tables'] }).injectEndpoints({
  endpoints: (build) => ({
    editorColumns: build.query<RouteReply<typeof tableEditorRoutes.listColumns>, Ref & { tableId: number }>({
      query: ({ ref, tableId }) => routeRequest(tableEditorRoutes.listColumns, { params: { ref }, query: { table_id: tableId } }),
      providesTags: (_r, _e, { ref, tableId }) => [{ type: 'Columns', id: `${ref}:${tableId}` }],
    }),
    // The column form sends the spec's payload (the route also takes postgres-meta's).
    createColumn: build.mutation<RouteReply<typeof tableEditorRoutes.createColumn>, Ref & { body: ColumnCreate }>({
      query: ({ ref, body }) => routeRequest(tableEditorRoutes.createColumn, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref, body }) => tableTags(ref, body.tableId),
    }),
    updateColumn: build.mutation<RouteReply<typeof tableEditorRoutes.updateColumn>, ColumnArg & { body: RouteBody<typeof tableEditorRoutes.updateColumn> }>({
      query: ({ ref, id, body }) => routeRequest(tableEditorRoutes.updateColumn, { params: { ref, id }, body }),
      invalidatesTags: (_r, _e, { ref, tableId }) => tableTags(ref, tableId),
    }),
    deleteColumn: build.mutation<RouteReply<typeof tableEditorRoutes.deleteColumn>, ColumnArg & { cascade?: boolean }>({
      query: ({ ref, id, cascade }) => routeRequest(tableEditorRoutes.deleteColumn, { params: { ref, id }, query: { cascade } }),
      invalidatesTags: (_r, _e, { ref, tableId }) => tableTags(ref, tableId),
    }),
  }),
  overrideExisting: 'throw',
});

export const { useEditorColumnsQuery, useCreateColumnMutation, useUpdateColumnMutation, useDeleteColumnMutation } = editorColumnsApi;
