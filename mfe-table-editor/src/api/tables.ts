import { baseApi } from '@dash/shell-sdk';
import { routeRequest } from '@dash/shell-sdk/routes';
import { tableEditorRoutes, type RouteBody, type RouteReply } from '@dash/contracts';

type Ref = { ref: string };
type TableArg = Ref & { id: number };

/**
 * Tables of the table editor: the list of one schema (metadata), one table with its columns, keys and
 * relationships, its DDL for the definition view, and the table form's writes. Writes refresh the
 * entity list, the table and its rows. A CSV import refreshes them through this api too (`Rows`: the
 * rows it added).
 */
export const editorTablesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Entities', 'Tables', 'Rows'] }).injectEndpoints({
  endpoints: (build) => ({
    editorTables: build.query<RouteReply<typeof tableEditorRoutes.listTables>, Ref & { schema: string }>({
      query: ({ ref, schema }) =>
        routeRequest(tableEditorRoutes.listTables, { params: { ref }, query: { included_schemas: schema, include_columns: false } }),
      providesTags: (_r, _e, { ref, schema }) => [{ type: 'Tables', id: `${ref}:${schema}` }],
    }),
    /** The database area's tables page: one schema's tables with their columns (for the column count). */
    databaseTables: build.query<RouteReply<typeof tableEditorRoutes.listTables>, Ref & { schema: string }>({
      query: ({ ref, schema }) =>
        routeRequest(tableEditorRoutes.listTables, { params: { ref }, query: { included_schemas: schema, include_columns: true } }),
      providesTags: (_r, _e, { ref, schema }) => [{ type: 'Tables', id: `${ref}:${schema}` }],
    }),
    editorTable: build.query<RouteReply<typeof tableEditorRoutes.getTable>, TableArg>({
      query: ({ ref, id }) => routeRequest(tableEditorRoutes.getTable, { params: { ref, id } }),
      providesTags: (_r, _e, { ref, id }) => [{ type: 'Tables', id: `${ref}:${id}` }],
    }),
    editorTableDefinition: build.query<RouteReply<typeof tableEditorRoutes.tableDefinition>, TableArg>({
      query: ({ ref, id }) => routeRequest(tableEditorRoutes.tableDefinition, { params: { ref, id } }),
      providesTags: (_r, _e, { ref, id }) => [{ type: 'Tables', id: `${ref}:${id}` }],
    }),
    createEditorTable: build.mutation<RouteReply<typeof tableEditorRoutes.createTable>, Ref & { body: RouteBody<typeof tableEditorRoutes.createTable> }>({
      query: ({ ref, body }) => routeRequest(tableEditorRoutes.createTable, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref, body }) => [
        { type: 'Entities', id: `${ref}:${body.schema}` },
        { type: 'Tables', id: `${ref}:${body.schema}` },
      ],
    }),
    updateEditorTable: build.mutation<RouteReply<typeof tableEditorRoutes.updateTable>, TableArg & { schema: string; body: RouteBody<typeof tableEditorRoutes.updateTable> }>({
      query: ({ ref, id, body }) => routeRequest(tableEditorRoutes.updateTable, { params: { ref, id }, body }),
      invalidatesTags: (_r, _e, { ref, id, schema }) => [
        { type: 'Entities', id: `${ref}:${schema}` },
        { type: 'Tables', id: `${ref}:${schema}` },
        { type: 'Tables', id: `${ref}:${id}` },
      ],
    }),
    deleteEditorTable: build.mutation<RouteReply<typeof tableEditorRoutes.deleteTable>, TableArg & { schema: string; cascade?: boolean }>({
      query: ({ ref, id, cascade }) => routeRequest(tableEditorRoutes.deleteTable, { params: { ref, id }, query: { cascade } }),
      invalidatesTags: (_r, _e, { ref, schema }) => [
        { type: 'Entities', id: `${ref}:${schema}` },
        { type: 'Tables', id: `${ref}:${schema}` },
      ],
    }),
  }),
  overrideExisting: 'throw',
});

export const {
  useEditorTablesQuery,
  useDatabaseTablesQuery,
  useEditorTableQuery,
  useEditorTableDefinitionQuery,
  useCreateEditorTableMutation,
  useUpdateEditorTableMutation,
  useDeleteEditorTableMutation,
} = editorTablesApi;
