/** What opens the explorer with a query: a template, a recent or a saved query, run at once. */
export interface ExplorerOpen {
  sql: string;
  /** The saved query it came from, so Save updates that one. */
  savedId?: string;
  savedName?: string;
}

export const explorerPath = (ref: string, page?: 'templates' | 'recent' | 'saved') => `/project/${ref}/logs/explorer${page ? `/${page}` : ''}`;
