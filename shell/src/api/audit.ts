import { baseApi } from '@dash/shell-sdk';
import { routeRequest } from '@dash/shell-sdk/routes';
import { auditRoutes as routes, type RouteReply } from '@dash/contracts';

type Page = { before?: string };

/** The audit log: an organization's, and the signed-in user's own. One query per page (`before`). */
export const auditApi = baseApi.enhanceEndpoints({ addTagTypes: ['Audit'] }).injectEndpoints({
  endpoints: (build) => ({
    organizationAudit: build.query<RouteReply<typeof routes.listOrganizationAudit>, { slug: string } & Page>({
      query: ({ slug, before }) => routeRequest(routes.listOrganizationAudit, { params: { slug }, query: { before } }),
      providesTags: ['Audit'],
    }),
    accountAudit: build.query<RouteReply<typeof routes.listAccountAudit>, Page>({
      query: ({ before }) => routeRequest(routes.listAccountAudit, { query: { before } }),
      providesTags: ['Audit'],
    }),
  }),
  overrideExisting: 'throw',
});

export const { useOrganizationAuditQuery, useAccountAuditQuery } = auditApi;
