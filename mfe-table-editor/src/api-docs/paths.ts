import type { ApiDocsPage } from '@dash/contracts';

/** App paths of the API docs area (`/project/{ref}/api`). */
export const apiDocsPaths = {
  page: (ref: string, page: ApiDocsPage) => `/project/${ref}/api?${new URLSearchParams({ page })}`,
  resource: (ref: string, table: string) => `/project/${ref}/api?${new URLSearchParams({ resource: table })}`,
  rpc: (ref: string, fn: string) => `/project/${ref}/api?${new URLSearchParams({ rpc: fn })}`,
  graphiql: (ref: string) => `/project/${ref}/api/graphiql`,
  extensions: (ref: string) => `/project/${ref}/database/extensions`,
};
