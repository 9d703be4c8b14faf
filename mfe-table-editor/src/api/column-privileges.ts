import { routeRequest } from '@dash/shell-sdk/routes';
import {
  columnPrivilegesRoutes,
  type ColumnPrivilegeGrant,
  type ColumnPrivilegeGrantee,
  type ColumnPrivilegeRevoke,
  type PgColumnPrivileges,
} from '@dash/contracts';
import { databaseApi } from './database';

type Ref = { ref: string };
const tag = (ref: string, tableId: number) => ({ type: 'ColumnPrivileges' as const, id: `${ref}:${tableId}` });

/** Column privileges of one table, the roles to grant them to, and grants and revokes (one request, one transaction). */
export const columnPrivilegesApi = databaseApi.enhanceEndpoints({ addTagTypes: ['ColumnPrivileges'] }).injectEndpoints({
  endpoints: (build) => ({
    columnPrivileges: build.query<PgColumnPrivileges[], Ref & { tableId: number }>({
      query: ({ ref, tableId }) => routeRequest(columnPrivilegesRoutes.listColumnPrivileges, { params: { ref }, query: { table_id: tableId } }),
      providesTags: (_r, _e, { ref, tableId }) => [tag(ref, tableId)],
    }),
    columnPrivilegeGrantees: build.query<ColumnPrivilegeGrantee[], Ref>({
      query: ({ ref }) => routeRequest(columnPrivilegesRoutes.listColumnPrivilegeGrantees, { params: { ref } }),
    }),
    grantColumnPrivileges: build.mutation<PgColumnPrivileges[], Ref & { tableId: number; body: ColumnPrivilegeGrant[] }>({
      query: ({ ref, body }) => routeRequest(columnPrivilegesRoutes.grantColumnPrivileges, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref, tableId }) => [tag(ref, tableId)],
    }),
    revokeColumnPrivileges: build.mutation<PgColumnPrivileges[], Ref & { tableId: number; body: ColumnPrivilegeRevoke[] }>({
      query: ({ ref, body }) => routeRequest(columnPrivilegesRoutes.revokeColumnPrivileges, { params: { ref }, body }),
      invalidatesTags: (_r, _e, { ref, tableId }) => [tag(ref, tableId)],
    }),
  }),
  overrideExisting: 'throw',
});

export const { useColumnPrivilegesQuery, useColumnPrivilegeGranteesQuery, useGrantColumnPrivilegesMutation, useRevokeColumnPrivilegesMutation } =
  columnPrivilegesApi;
