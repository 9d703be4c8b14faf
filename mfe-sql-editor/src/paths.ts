/** The SQL editor's pages under the shell's mount `/project/:ref/sql/*`. */
export const sqlPaths = {
  root: (ref: string) => `/project/${ref}/sql`,
  newQuery: (ref: string) => `/project/${ref}/sql/new`,
  snippet: (ref: string, id: string) => `/project/${ref}/sql/${encodeURIComponent(id)}`,
  templates: (ref: string) => `/project/${ref}/sql/templates`,
  quickstarts: (ref: string) => `/project/${ref}/sql/quickstarts`,
  runningQueries: (ref: string) => `/project/${ref}/sql/running-queries`,
};

/** The `:id` of the new-query page. */
export const NEW_QUERY_ID = 'new';
