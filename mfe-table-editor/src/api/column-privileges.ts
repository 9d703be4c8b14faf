import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { columnPrivilegesRoutes, type ColumnPrivilegeGrant, type ColumnPrivilegeRevoke } from '@dash/contracts';
import { databaseApi } from './database';

type Ref = { ref: string };
const tag = (ref: string, tableId: number) => ({ type: 'ColumnPrivileges' as const, id: `${ref}:${tableId}` });

/** Column privileges of one table, the roles to grant them to, and grants and revokes (one request, one transaction). */
export const columnPrivilegesApi = databaseApi.enhanceEndpoints({ addTagTypes: ['ColumnPrivileges'] }).injectEndpoints({
  endpoints: (build) => ({
    columnPrivileges: routeQuery(build, columnPrivilegesRoutes.listColumnPrivileges, {
      parts: ({ ref, tableId }: Ref & { tableId: number }) => ({ params: { ref }, query: { table_id: tableId } }),
      providesTags: (_r, _e, { ref, tableId }) => [tag(ref, tableId)],
    }),
    columnPrivilegeGrantees: routeQuery(build, columnPrivilegesRoutes.listColumnPrivilegeGrantees),
    grantColumnPrivileges: routeMutation(build, columnPrivilegesRoutes.grantColumnPrivileges, {
      parts: ({ ref, body }: Ref & { tableId: number; body: ColumnPrivilegeGrant[] }) => ({ params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref, tableId }) => [tag(ref, tableId)],
    }),
    revokeColumnPrivileges: routeMutation(build, columnPrivilegesRoutes.revokeColumnPrivileges, {
      parts: ({ ref, body }: Ref & { tableId: number; body: ColumnPrivilegeRevoke[] }) => ({ params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref, tableId }) => [tag(ref, tableId)],
    }),
  }),
  overrideExisting: 'throw',
});

export const { useColumnPrivilegesQuery, useColumnPrivilegeGranteesQuery, useGrantColumnPrivilegesMutation, useRevokeColumnPrivilegesMutation } =
  columnPrivilegesApi;
