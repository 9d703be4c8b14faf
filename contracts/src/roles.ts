import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, OidParams, RefParams } from './route';
import { access, Permission } from './permissions';

/**
 * postgres-meta's database role, with its field names. The password is never returned (always
 * `********`); `valid_until` is an ISO timestamp or null; `connection_limit` -1 reads as the server's
 * max_connections, as postgres-meta reports it.
 */
export const PgRole = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  is_superuser: Type.Boolean(),
  can_create_db: Type.Boolean(),
  can_create_role: Type.Boolean(),
  inherit_role: Type.Boolean(),
  can_login: Type.Boolean(),
  is_replication_role: Type.Boolean(),
  can_bypass_rls: Type.Boolean(),
  active_connections: Type.Integer(),
  connection_limit: Type.Integer(),
  password: Type.String(),
  valid_until: Type.Union([Type.String(), Type.Null()]),
  config: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()]),
});
export type PgRole = Static<typeof PgRole>;

const RoleName = Type.String({ minLength: 1, maxLength: 63 });
/** A setting name (`search_path`, `app.tenant`) and its value, as `ALTER ROLE ... SET` takes them. */
const SettingName = Type.String({ minLength: 1, maxLength: 63, pattern: '^[A-Za-z_][A-Za-z0-9_$.]*$' });
const SettingValue = Type.String({ maxLength: 10_000 });

/** The role's capabilities, as postgres-meta's create and update bodies take them. Superuser is never granted. */
const RoleAttributes = {
  password: Type.Optional(Type.String({ maxLength: 1024 })),
  inherit_role: Type.Optional(Type.Boolean()),
  can_login: Type.Optional(Type.Boolean()),
  /** Only `false` is accepted: superuser is not grantable from the dashboard. */
  is_superuser: Type.Optional(Type.Boolean()),
  can_create_db: Type.Optional(Type.Boolean()),
  can_create_role: Type.Optional(Type.Boolean()),
  is_replication_role: Type.Optional(Type.Boolean()),
  can_bypass_rls: Type.Optional(Type.Boolean()),
  /** -1 is unlimited. */
  connection_limit: Type.Optional(Type.Integer({ minimum: -1, maximum: 1_000_000 })),
  /** A timestamp Postgres accepts (`2030-01-01`, `infinity`). */
  valid_until: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
};

/**
 * postgres-meta's role create body (the spec's role inputs). Defaults: inherit_role true,
 * connection_limit -1, every other flag false. `member_of`: roles it joins; `members`: roles that join
 * it; `admins`: members with ADMIN OPTION; `config`: settings (`ALTER ROLE ... SET`).
 */
export const RoleCreate = Type.Object(
  {
    name: RoleName,
    ...RoleAttributes,
    member_of: Type.Optional(Type.Array(RoleName, { maxItems: 1000 })),
    members: Type.Optional(Type.Array(RoleName, { maxItems: 1000 })),
    admins: Type.Optional(Type.Array(RoleName, { maxItems: 1000 })),
    config: Type.Optional(Type.Record(SettingName, SettingValue)),
  },
  { additionalProperties: false },
);
export type RoleCreate = Static<typeof RoleCreate>;

/** A change to one setting, as postgres-meta's update takes it: `remove` resets it. */
export const RoleConfigChange = Type.Union([
  Type.Object({ op: Type.Union([Type.Literal('add'), Type.Literal('replace')]), path: SettingName, value: SettingValue }, { additionalProperties: false }),
  Type.Object({ op: Type.Literal('remove'), path: SettingName, value: Type.Optional(SettingValue) }, { additionalProperties: false }),
]);
export type RoleConfigChange = Static<typeof RoleConfigChange>;

/** postgres-meta's role update body: only what changes. A null password removes it; a null valid_until means forever. */
export const RoleUpdate = Type.Object(
  {
    name: Type.Optional(RoleName),
    ...RoleAttributes,
    password: Type.Optional(Type.Union([Type.String({ maxLength: 1024 }), Type.Null()])),
    valid_until: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()])),
    config: Type.Optional(Type.Array(RoleConfigChange, { maxItems: 1000 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type RoleUpdate = Static<typeof RoleUpdate>;

export const rolesRoutes = {
  /** `pg_`-prefixed roles are left out unless `include_default_roles` is set. */
  listRoles: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/roles',
    params: RefParams,
    querystring: Type.Object({
      include_default_roles: Type.Optional(Type.Boolean()),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
      offset: Type.Optional(Type.Integer({ minimum: 0 })),
    }),
    response: Type.Array(PgRole),
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  getRole: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/roles/:id', params: OidParams, response: PgRole, access: access.project(Permission.TenantSqlAdminRead) }),
  createRole: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/roles', params: RefParams, body: RoleCreate, response: PgRole, access: access.project(Permission.TenantSqlAdminWrite) }),
  updateRole: defineRoute({ service: 'pg-meta', method: 'PATCH', url: '/:ref/roles/:id', params: OidParams, body: RoleUpdate, response: PgRole, access: access.project(Permission.TenantSqlAdminWrite) }),
  /** Replies with the role as it was. */
  deleteRole: defineRoute({ service: 'pg-meta', method: 'DELETE', url: '/:ref/roles/:id', params: OidParams, response: PgRole, access: access.project(Permission.TenantSqlAdminWrite) }),
};
