/** Absolute paths of the reports area (relative links resolve below deep paths). */
export const reportsPath = (ref: string) => `/project/${ref}/reports`;
export const customReportPath = (ref: string, id: string) => `/project/${ref}/reports/${id}`;
