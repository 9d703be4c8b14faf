/** App paths of the database area (plain URLs; cross-area links too). */
export const databasePaths = {
  page: (ref: string, page: string) => `/project/${ref}/database/${page}`,
  /** The auth area's policies page, which the menu's Policies item opens. */
  policies: (ref: string) => `/project/${ref}/auth/policies`,
};
