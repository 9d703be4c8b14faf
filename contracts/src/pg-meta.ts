import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, OidParams, RefParams } from './route';
import { access, Permission } from './permissions';
import { ENTITY_PAGE_SIZE } from './constants';

/** postgres-meta's schema shape. */
export const PgSchema = Type.Object({ id: Type.Integer(), name: Type.String(), owner: Type.String() });
export type PgSchema = Static<typeof PgSchema>;

/** postgres-meta's policy shape. */
export const PgPolicy = Type.Object({
  id: Type.Integer(),
  schema: Type.String(),
  table: Type.String(),
  table_id: Type.Integer(),
  name: Type.String(),
  action: Type.Union([Type.Literal('PERMISSIVE'), Type.Literal('RESTRICTIVE')]),
  roles: Type.Array(Type.String()),
  command: Type.Union([
    Type.Literal('SELECT'),
    Type.Literal('INSERT'),
    Type.Literal('UPDATE'),
    Type.Literal('DELETE'),
    Type.Literal('ALL'),
  ]),
  definition: Type.Union([Type.String(), Type.Null()]),
  check: Type.Union([Type.String(), Type.Null()]),
});
export type PgPolicy = Static<typeof PgPolicy>;

export const EntityType = Type.Union([
  Type.Literal('table'),
  Type.Literal('view'),
  Type.Literal('foreign_table'),
  Type.Literal('materialized_view'),
  Type.Literal('partitioned_table'),
]);
export type EntityType = Static<typeof EntityType>;

/** An item of the table editor's entity list. */
export const Entity = Type.Object({
  id: Type.Integer(),
  schema: Type.String(),
  name: Type.String(),
  type: EntityType,
  comment: Type.Union([Type.String(), Type.Null()]),
});
export type Entity = Static<typeof Entity>;

export const EntitySort = Type.Union([Type.Literal('alphabetical'), Type.Literal('grouped-alphabetical')]);
export type EntitySort = Static<typeof EntitySort>;

/** Comma-separated schema names, as postgres-meta takes them. */
const SchemaList = Type.String({ maxLength: 10_000 });
/** postgres-meta's paging of a list: at most `limit` items after skipping `offset`. */
const Limit = Type.Integer({ minimum: 1, maximum: 100_000 });
const Offset = Type.Integer({ minimum: 0, maximum: 1_000_000_000 });

export const pgMetaRoutes = {
  listSchemas: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/schemas',
    params: RefParams,
    querystring: Type.Object({
      include_system_schemas: Type.Optional(Type.Boolean()),
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
    }),
    response: Type.Array(PgSchema),
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  getSchema: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/schemas/:id',
    params: OidParams,
    response: PgSchema,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  listPolicies: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/policies',
    params: RefParams,
    querystring: Type.Object({
      included_schemas: Type.Optional(SchemaList),
      excluded_schemas: Type.Optional(SchemaList),
      include_system_schemas: Type.Optional(Type.Boolean()),
      limit: Type.Optional(Limit),
      offset: Type.Optional(Offset),
    }),
    response: Type.Array(PgPolicy),
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  getPolicy: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/policies/:id',
    params: OidParams,
    response: PgPolicy,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  listEntities: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/entities',
    params: RefParams,
    querystring: Type.Object({
      schema: Type.String({ minLength: 1, maxLength: 63 }),
      search: Type.Optional(Type.String({ maxLength: 200 })),
      sort: Type.Optional(EntitySort),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: ENTITY_PAGE_SIZE })),
      offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
    }),
    response: Type.Object({ data: Type.Array(Entity), hasMore: Type.Boolean() }),
    access: access.project(Permission.TenantSqlAdminRead),
  }),
};
