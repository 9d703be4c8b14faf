import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { tableEditorRoutes } from '@dash/contracts';

type Ref = { ref: string };

/** The tables of one schema with their row-level security status, the RLS toggle, and a table's columns. */
export const rlsTablesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Columns', 'Tables'] }).injectEndpoints({
  endpoints: (build) => ({
    rlsTables: routeQuery(build, tableEditorRoutes.listTables, {
      parts: ({ ref, schema }: Ref & { schema: string }) => ({ params: { ref }, query: { included_schemas: schema, include_columns: false } }),
      providesTags: (_r, _e, { ref, schema }) => [{ type: 'Tables', id: `${ref}:${schema}` }],
    }),
    /** The table editor's caches of the table refresh too (same tags). */
    rlsUpdateTable: routeMutation(build, tableEditorRoutes.updateTable, {
      parts: ({ ref, id, rls_enabled }: Ref & { id: number; schema: string; rls_enabled: boolean }) => ({ params: { ref, id }, body: { rls_enabled } }),
      invalidatesTags: (_r, error, { ref, id, schema }) =>
        error
          ? []
          : [
              { type: 'Tables', id: `${ref}:${schema}` },
              { type: 'Tables', id: `${ref}:${id}` },
            ],
    }),
    /** For the preview's sample row. */
    rlsTableColumns: routeQuery(build, tableEditorRoutes.listColumns, {
      parts: ({ ref, tableId }: Ref & { tableId: number }) => ({ params: { ref }, query: { table_id: tableId } }),
      providesTags: (_r, _e, { ref, tableId }) => [{ type: 'Columns', id: `${ref}:${tableId}` }],
    }),
  }),
  overrideExisting: 'throw',
});

export const { useRlsTablesQuery, useRlsUpdateTableMutation, useRlsTableColumnsQuery } = rlsTablesApi;
