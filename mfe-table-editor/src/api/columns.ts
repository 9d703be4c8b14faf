import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { tableEditorRoutes, type ColumnCreate, type RouteBody } from '@dash/contracts';

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
    editorColumns: routeQuery(build, tableEditorRoutes.listColumns, {
      parts: ({ ref, tableId }: Ref & { tableId: number }) => ({ params: { ref }, query: { table_id: tableId } }),
      providesTags: (_r, _e, { ref, tableId }) => [{ type: 'Columns', id: `${ref}:${tableId}` }],
    }),
    // The column form sends the spec's payload (the route also takes postgres-meta's).
    createColumn: routeMutation(build, tableEditorRoutes.createColumn, {
      parts: ({ ref, body }: Ref & { body: ColumnCreate }) => ({ params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref, body }) => tableTags(ref, body.tableId),
    }),
    updateColumn: routeMutation(build, tableEditorRoutes.updateColumn, {
      parts: ({ ref, id, body }: ColumnArg & { body: RouteBody<typeof tableEditorRoutes.updateColumn> }) => ({ params: { ref, id }, body }),
      invalidatesTags: (_r, _e, { ref, tableId }) => tableTags(ref, tableId),
    }),
    deleteColumn: routeMutation(build, tableEditorRoutes.deleteColumn, {
      parts: ({ ref, id, cascade }: ColumnArg & { cascade?: boolean }) => ({ params: { ref, id }, query: { cascade } }),
      invalidatesTags: (_r, _e, { ref, tableId }) => tableTags(ref, tableId),
    }),
  }),
  overrideExisting: 'throw',
});

export const { useEditorColumnsQuery, useCreateColumnMutation, useUpdateColumnMutation, useDeleteColumnMutation } = editorColumnsApi;
