import { baseApi } from '@dash/shell-sdk';
import { routeQuery } from '@dash/shell-sdk/routes';
import { auditRoutes as routes } from '@dash/contracts';

/** The audit log: an organization's, and the signed-in user's own. One query per page (`before`). */
export const auditApi = baseApi.enhanceEndpoints({ addTagTypes: ['Audit'] }).injectEndpoints({
  endpoints: (build) => ({
    organizationAudit: routeQuery(build, routes.listOrganizationAudit, { providesTags: ['Audit'] }),
    accountAudit: routeQuery(build, routes.listAccountAudit, { providesTags: ['Audit'] }),
  }),
  overrideExisting: 'throw',
});

export const { useOrganizationAuditQuery, useAccountAuditQuery } = auditApi;
