import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { tableEditorRoutes, type RouteBody } from '@dash/contracts';

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
    editorTables: routeQuery(build, tableEditorRoutes.listTables, {
      parts: ({ ref, schema }: Ref & { schema: string }) => ({ params: { ref }, query: { included_schemas: schema, include_columns: false } }),
      providesTags: (_r, _e, { ref, schema }) => [{ type: 'Tables', id: `${ref}:${schema}` }],
    }),
    /** The database area's tables page: one schema's tables with their columns (for the column count). */
    databaseTables: routeQuery(build, tableEditorRoutes.listTables, {
      parts: ({ ref, schema }: Ref & { schema: string }) => ({ params: { ref }, query: { included_schemas: schema, include_columns: true } }),
      providesTags: (_r, _e, { ref, schema }) => [{ type: 'Tables', id: `${ref}:${schema}` }],
    }),
    editorTable: routeQuery(build, tableEditorRoutes.getTable, { providesTags: (_r, _e, { ref, id }) => [{ type: 'Tables', id: `${ref}:${id}` }] }),
    editorTableDefinition: routeQuery(build, tableEditorRoutes.tableDefinition, { providesTags: (_r, _e, { ref, id }) => [{ type: 'Tables', id: `${ref}:${id}` }] }),
    createEditorTable: routeMutation(build, tableEditorRoutes.createTable, {
      parts: ({ ref, body }: Ref & { body: RouteBody<typeof tableEditorRoutes.createTable> }) => ({ params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref, body }) => [
        { type: 'Entities', id: `${ref}:${body.schema}` },
        { type: 'Tables', id: `${ref}:${body.schema}` },
      ],
    }),
    updateEditorTable: routeMutation(build, tableEditorRoutes.updateTable, {
      parts: ({ ref, id, body }: TableArg & { schema: string; body: RouteBody<typeof tableEditorRoutes.updateTable> }) => ({ params: { ref, id }, body }),
      invalidatesTags: (_r, _e, { ref, id, schema }) => [
        { type: 'Entities', id: `${ref}:${schema}` },
        { type: 'Tables', id: `${ref}:${schema}` },
        { type: 'Tables', id: `${ref}:${id}` },
      ],
    }),
    deleteEditorTable: routeMutation(build, tableEditorRoutes.deleteTable, {
      parts: ({ ref, id, cascade }: TableArg & { schema: string; cascade?: boolean }) => ({ params: { ref, id }, query: { cascade } }),
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
