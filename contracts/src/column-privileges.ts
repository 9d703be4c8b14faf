import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams } from './route';
import { access, Permission } from './permissions';
import { DatabaseListQuery } from './database';

/*
 * Column privileges (Database → Column Privileges, ALPHA): postgres-meta's `/column-privileges` dialect
 * (list, grant with POST, revoke with DELETE, both replying with the changed columns' privileges), plus
 * where each privilege comes from. A table-level grant (`grant select on t`) covers every column, so a
 * privilege can hold through the table, through the column (`grant select (c) on t`), or both.
 */

/** The privileges Postgres grants per column. */
export const COLUMN_PRIVILEGE_TYPES = ['SELECT', 'INSERT', 'UPDATE', 'REFERENCES'] as const;
export type ColumnPrivilegeType = (typeof COLUMN_PRIVILEGE_TYPES)[number];
const PrivilegeType = Type.Union(COLUMN_PRIVILEGE_TYPES.map((p) => Type.Literal(p)));
/** A grant or revoke may also name ALL (the four at once), as postgres-meta takes it. */
const PrivilegeChangeType = Type.Union([Type.Literal('ALL'), PrivilegeType]);

/** The roles apps reach the database as: offered first, before the project's own roles. */
export const API_ROLES: readonly string[] = ['anon', 'authenticated', 'service_role'];

/** postgres-meta's column id, `{tableId}.{ordinal}`. */
const ColumnId = Type.String({ pattern: '^[0-9]{1,10}\\.[0-9]{1,5}$' });
/** A role name, or PUBLIC (every role). */
const Grantee = Type.String({ minLength: 1, maxLength: 63 });

export const PgColumnPrivilege = Type.Object({
  grantor: Type.String(),
  /** A role name, or `PUBLIC`. */
  grantee: Type.String(),
  privilege_type: PrivilegeType,
  is_grantable: Type.Boolean(),
  /** Ours: granted on this column itself (`attacl`). */
  column_level: Type.Boolean(),
  /** Ours: granted on the whole table (`relacl`, the owner's implicit privileges included). */
  table_level: Type.Boolean(),
});
export type PgColumnPrivilege = Static<typeof PgColumnPrivilege>;

export const PgColumnPrivileges = Type.Object({
  column_id: Type.String(),
  relation_schema: Type.String(),
  relation_name: Type.String(),
  column_name: Type.String(),
  privileges: Type.Array(PgColumnPrivilege),
});
export type PgColumnPrivileges = Static<typeof PgColumnPrivileges>;

/** postgres-meta's list query, plus ours: `table_id`, one relation's columns (the schema filter then does not apply). */
export const ColumnPrivilegesListQuery = Type.Composite([
  DatabaseListQuery,
  Type.Object({ table_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 4_294_967_295 })) }),
]);
export type ColumnPrivilegesListQuery = Static<typeof ColumnPrivilegesListQuery>;

export const ColumnPrivilegeGrant = Type.Object(
  { column_id: ColumnId, grantee: Grantee, privilege_type: PrivilegeChangeType, is_grantable: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type ColumnPrivilegeGrant = Static<typeof ColumnPrivilegeGrant>;

export const ColumnPrivilegeRevoke = Type.Object(
  { column_id: ColumnId, grantee: Grantee, privilege_type: PrivilegeChangeType },
  { additionalProperties: false },
);
export type ColumnPrivilegeRevoke = Static<typeof ColumnPrivilegeRevoke>;

/** A role the page offers as grantee: the API roles and the project's own, not the platform's. */
export const ColumnPrivilegeGrantee = Type.Object({ id: Type.Integer(), name: Type.String() });
export type ColumnPrivilegeGrantee = Static<typeof ColumnPrivilegeGrantee>;

/** One request is one change, in one transaction: every grant (or revoke) of the list, or none. */
const MAX_CHANGES = 10_000;

export const columnPrivilegesRoutes = {
  listColumnPrivileges: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/column-privileges',
    params: RefParams,
    querystring: ColumnPrivilegesListQuery,
    response: Type.Array(PgColumnPrivileges),
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /** The API roles first, then the others by name; superusers, `pg_` roles and the platform's roles are left out. */
  listColumnPrivilegeGrantees: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/column-privileges/grantees',
    params: RefParams,
    response: Type.Array(ColumnPrivilegeGrantee),
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /** Replies with the privileges of the columns named. */
  grantColumnPrivileges: defineRoute({
    service: 'pg-meta',
    method: 'POST',
    url: '/:ref/column-privileges',
    params: RefParams,
    body: Type.Array(ColumnPrivilegeGrant, { minItems: 1, maxItems: MAX_CHANGES }),
    response: Type.Array(PgColumnPrivileges),
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  /** Replies with the privileges of the columns named. */
  revokeColumnPrivileges: defineRoute({
    service: 'pg-meta',
    method: 'DELETE',
    url: '/:ref/column-privileges',
    params: RefParams,
    body: Type.Array(ColumnPrivilegeRevoke, { minItems: 1, maxItems: MAX_CHANGES }),
    response: Type.Array(PgColumnPrivileges),
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
};
