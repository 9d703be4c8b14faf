/** App paths of the table editor and the cross-area links it offers (plain URLs). */
export const DEFAULT_SCHEMA = 'public';

function withSchema(path: string, schema: string): string {
  return schema === DEFAULT_SCHEMA ? path : `${path}?${new URLSearchParams({ schema })}`;
}

/** The query parameter of a link that opens the table editor with the new-table form (`new=table`). */
export const NEW_TABLE_PARAM = 'new';

export const editorPaths = {
  index: (ref: string, schema = DEFAULT_SCHEMA) => withSchema(`/project/${ref}/editor`, schema),
  table: (ref: string, id: number, schema = DEFAULT_SCHEMA) => withSchema(`/project/${ref}/editor/${id}`, schema),
  /** The policies screen, filtered to one table (spec: ?schema={schema}&search={tableId}). */
  policies: (ref: string, schema: string, tableId: number) =>
    `/project/${ref}/auth/policies?${new URLSearchParams({ schema, search: String(tableId) })}`,
};
