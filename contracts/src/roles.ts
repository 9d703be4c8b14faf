import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams } from './route';
import { access, Permission } from './permissions';
import { OidParams } from './policies';

/** postgres-meta's database role. The password is never returned (always `********`). */
export const PgRole = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  isSuperuser: Type.Boolean(),
  canCreateDb: Type.Boolean(),
  canCreateRole: Type.Boolean(),
  inheritRole: Type.Boolean(),
  canLogin: Type.Boolean(),
  isReplicationRole: Type.Boolean(),
  canBypassRls: Type.Boolean(),
  activeConnections: Type.Integer(),
  connectionLimit: Type.Integer(),
  password: Type.String(),
  validUntil: Type.Union([Type.String(), Type.Null()]),
  config: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()]),
});
export type PgRole = Static<typeof PgRole>;

const RoleName = Type.String({ minLength: 1, maxLength: 63 });
/** A setting name (`search_path`, `app.tenant`) and its value, as `ALTER ROLE ... SET` takes them. */
const SettingName = Type.String({ minLength: 1, maxLength: 63, pattern: '^[A-Za-z_][A-Za-z0-9_$.]*$' });

/** The role's capabilities, as the create and update payloads take them. Superuser is never granted. */
const RoleAttributes = {
  password: Type.Optional(Type.String({ maxLength: 1024 })),
  inheritRole: Type.Optional(Type.Boolean()),
  canLogin: Type.Optional(Type.Boolean()),
  /** Only `false` is accepted: superuser is not grantable from the dashboard. */
  isSuperuser: Type.Optional(Type.Boolean()),
  canCreateDb: Type.Optional(Type.Boolean()),
  canCreateRole: Type.Optional(Type.Boolean()),
  isReplicationRole: Type.Optional(Type.Boolean()),
  canBypassRls: Type.Optional(Type.Boolean()),
  /** -1 is unlimited. */
  connectionLimit: Type.Optional(Type.Integer({ minimum: -1, maximum: 1_000_000 })),
  /** A timestamp Postgres accepts (`2030-01-01`, `infinity`). */
  validUntil: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
};

/**
 * The spec's role create payload. Defaults: inheritRole true, connectionLimit -1, every other flag
 * false. `memberOf`: roles it joins; `members`: roles that join it; `admins`: members with ADMIN OPTION.
 */
export const RoleCreate = Type.Object(
  {
    name: RoleName,
    ...RoleAttributes,
    memberOf: Type.Optional(Type.Array(RoleName, { maxItems: 1000 })),
    members: Type.Optional(Type.Array(RoleName, { maxItems: 1000 })),
    admins: Type.Optional(Type.Array(RoleName, { maxItems: 1000 })),
    config: Type.Optional(Type.Record(SettingName, Type.String({ maxLength: 10_000 }))),
  },
  { additionalProperties: false },
);
export type RoleCreate = Static<typeof RoleCreate>;

/** Only what changes. A null password removes it; a null validUntil means forever; a null setting is reset. */
export const RoleUpdate = Type.Object(
  {
    name: Type.Optional(RoleName),
    ...RoleAttributes,
    password: Type.Optional(Type.Union([Type.String({ maxLength: 1024 }), Type.Null()])),
    validUntil: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()])),
    config: Type.Optional(Type.Record(SettingName, Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()]))),
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
  createRole: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/roles', params: RefParams, body: RoleCreate, response: PgRole, status: 201, access: access.project(Permission.TenantSqlAdminWrite) }),
  updateRole: defineRoute({ service: 'pg-meta', method: 'PATCH', url: '/:ref/roles/:id', params: OidParams, body: RoleUpdate, response: PgRole, access: access.project(Permission.TenantSqlAdminWrite) }),
  /** Replies with the role as it was. */
  deleteRole: defineRoute({ service: 'pg-meta', method: 'DELETE', url: '/:ref/roles/:id', params: OidParams, response: PgRole, access: access.project(Permission.TenantSqlAdminWrite) }),
};
