/** App paths used by the policies screen; the table editor is another area, reached by plain URL. */
export const DEFAULT_SCHEMA = 'public';

function withSchema(path: string, schema: string): string {
  return schema === DEFAULT_SCHEMA ? path : `${path}?${new URLSearchParams({ schema })}`;
}

export const policyPaths = {
  index: (ref: string) => `/project/${ref}/auth/policies`,
  /** The table editor with its new-table form open, on `schema` (the editor's `new=table` request). */
  newTable: (ref: string, schema = DEFAULT_SCHEMA) => `/project/${ref}/editor?${new URLSearchParams({ ...(schema === DEFAULT_SCHEMA ? {} : { schema }), new: 'table' })}`,
  table: (ref: string, tableId: number, schema = DEFAULT_SCHEMA) => withSchema(`/project/${ref}/editor/${tableId}`, schema),
};
