/** App paths of the advisors area. */
export const advisorPaths = {
  page: (ref: string, page: string) => `/project/${ref}/advisors/${page}`,
};
