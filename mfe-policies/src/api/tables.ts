import { baseApi } from '@dash/shell-sdk';
import { routeRequest } from '@dash/shell-sdk/routes';
import { type RouteReply, tableEditorRoutes } from '@dash/contracts';

type Ref = { ref: string };

/** The tables of one schema with their row-level security status, the RLS toggle, and a table's columns. */
export const rlsTablesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Columns', 'Tables'] }).injectEndpoints({
  endpoints: (build) => ({
    rlsTables: build.query<RouteReply<typeof tableEditorRoutes.listTables>, Ref & { schema: string }>({
      query: ({ ref, schema }) =>
        routeRequest(tableEditorRoutes.listTables, { params: { ref }, query: { included_schemas: schema, include_columns: false } }),
      providesTags: (_r, _e, { ref, schema }) => [{ type: 'Tables', id: `${ref}:${schema}` }],
    }),
    /** The table editor's caches of the table refresh too (same tags). */
    rlsUpdateTable: build.mutation<RouteReply<typeof tableEditorRoutes.updateTable>, Ref & { id: number; schema: string; rls_enabled: boolean }>({
      query: ({ ref, id, rls_enabled }) => routeRequest(tableEditorRoutes.updateTable, { params: { ref, id }, body: { rls_enabled } }),
      invalidatesTags: (_r, error, { ref, id, schema }) =>
        error
          ? []
          : [
              { type: 'Tables', id: `${ref}:${schema}` },
              { type: 'Tables', id: `${ref}:${id}` },
            ],
    }),
    /** For the preview's sample row. */
    rlsTableColumns: build.query<RouteReply<typeof tableEditorRoutes.listColumns>, Ref & { tableId: number }>({
      query: ({ ref, tableId }) => routeRequest(tableEditorRoutes.listColumns, { params: { ref }, query: { table_id: tableId } }),
      providesTags: (_r, _e, { ref, tableId }) => [{ type: 'Columns', id: `${ref}:${tableId}` }],
    }),
  }),
  overrideExisting: 'throw',
});

export const { useRlsTablesQuery, useRlsUpdateTableMutation, useRlsTableColumnsQuery } = rlsTablesApi;
