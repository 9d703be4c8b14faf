import type { AreaMenuSection } from '@dash/contracts';

/** App paths of the advisors area. */
export const advisorPaths = {
  page: (ref: string, page: string) => `/project/${ref}/advisors/${page}`,
};

/**
 * The advisors area's menu; Query Performance is the database area's page (AdvisorsRoutes redirects).
 * Here, not beside the routes: the module declares it while the area's pages load only when opened.
 */
export const advisorsMenu: AreaMenuSection[] = [
  {
    items: [
      { label: 'Security Advisor', path: 'security' },
      { label: 'Performance Advisor', path: 'performance' },
      { label: 'Query Performance', path: 'query-performance' },
    ],
  },
];
