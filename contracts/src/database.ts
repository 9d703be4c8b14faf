import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { defineRoute, OidParams, RefParams } from './route';
import { access, Permission } from './permissions';

/*
 * The database area's catalog: functions, triggers, types, extensions, indexes and publications. The
 * lists speak the postgres-meta dialect (its paths, field names and integer oids); the writes of
 * resources postgres-meta only lists (enum types, indexes) are ours, in the same style. Every write
 * is built by the service from quoted identifiers and literals and runs in one transaction.
 */

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Identifier = Type.String({ minLength: 1, maxLength: 63 });
const SchemaName = Type.String({ minLength: 1, maxLength: 63 });
const read = access.project(Permission.TenantSqlAdminRead);
const write = access.project(Permission.TenantSqlAdminWrite);

/** postgres-meta's paging of a list. */
export const PagingQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type PagingQuery = Static<typeof PagingQuery>;

/** postgres-meta's schema filter and paging, shared by the lists. */
export const DatabaseListQuery = Type.Composite([
  Type.Object({
    included_schemas: Type.Optional(Type.String({ maxLength: 10_000 })),
    excluded_schemas: Type.Optional(Type.String({ maxLength: 10_000 })),
    include_system_schemas: Type.Optional(Type.Boolean()),
  }),
  PagingQuery,
]);
export type DatabaseListQuery = Static<typeof DatabaseListQuery>;

/** The type list's query: postgres-meta's, with array types on request. */
export const TypeListQuery = Type.Composite([DatabaseListQuery, Type.Object({ include_array_types: Type.Optional(Type.Boolean()) })]);

export const CascadeQuery = Type.Object({ cascade: Type.Optional(Type.Boolean()) });

// ---------------------------------------------------------------- functions

export const FUNCTION_BEHAVIORS = ['IMMUTABLE', 'STABLE', 'VOLATILE'] as const;
export const FunctionBehavior = Type.Union(FUNCTION_BEHAVIORS.map((b) => Type.Literal(b)));
export type FunctionBehavior = Static<typeof FunctionBehavior>;
export const FUNCTION_ARG_MODES = ['in', 'out', 'inout', 'variadic'] as const;

export const PgFunctionArg = Type.Object({
  mode: Type.Union([...FUNCTION_ARG_MODES.map((m) => Type.Literal(m)), Type.Literal('table')]),
  name: Type.String(),
  type_id: Type.Integer(),
  /** The type as Postgres prints it (`integer`, `text[]`, `app.mood`): ours, for the edit form. */
  type_name: Type.String(),
  /** Whether an input argument has a default; null for OUT and TABLE arguments, as postgres-meta has it. */
  has_default: Nullable(Type.Boolean()),
});

/** postgres-meta's function (plain functions only: no aggregates, window functions or procedures). */
export const PgFunction = Type.Object({
  id: Type.Integer(),
  schema: Type.String(),
  name: Type.String(),
  language: Type.String(),
  definition: Type.String(),
  complete_statement: Type.String(),
  args: Type.Array(PgFunctionArg),
  argument_types: Type.String(),
  identity_argument_types: Type.String(),
  return_type_id: Type.Integer(),
  return_type: Type.String(),
  return_type_relation_id: Nullable(Type.Integer()),
  is_set_returning_function: Type.Boolean(),
  /** The planner's estimate of rows for a set-returning function (`ROWS`); null otherwise. */
  prorows: Nullable(Type.Number()),
  behavior: FunctionBehavior,
  security_definer: Type.Boolean(),
  config_params: Nullable(Type.Record(Type.String(), Type.String())),
});
export type PgFunction = Static<typeof PgFunction>;

/** One argument as the form has it: a name, a type name (`int8`, `text[]`, `my_schema.my_type`) and a mode. */
export const FunctionArgInput = Type.Object(
  {
    name: Identifier,
    type: Type.String({ minLength: 1, maxLength: 200 }),
    mode: Type.Optional(Type.Union(FUNCTION_ARG_MODES.map((m) => Type.Literal(m)))),
  },
  { additionalProperties: false },
);
export type FunctionArgInput = Static<typeof FunctionArgInput>;

const SettingName = Type.String({ minLength: 1, maxLength: 63, pattern: '^[A-Za-z_][A-Za-z0-9_$.]*$' });

/**
 * A whole function, as the create and edit forms send it. `return_type` is a type name, `setof <type>`,
 * `void` or `trigger`; the definition is the body, sent to Postgres as one quoted literal.
 */
export const FunctionInput = Type.Object(
  {
    name: Identifier,
    schema: SchemaName,
    args: Type.Array(FunctionArgInput, { maxItems: 100 }),
    return_type: Type.String({ minLength: 1, maxLength: 200 }),
    language: Identifier,
    definition: Type.String({ minLength: 1, maxLength: 1_000_000 }),
    behavior: FunctionBehavior,
    security_definer: Type.Boolean(),
    /** `set <name> = <value>` per function (search_path for a security definer). */
    config_params: Type.Optional(Type.Record(SettingName, Type.String({ maxLength: 10_000 }))),
  },
  { additionalProperties: false },
);
export type FunctionInput = Static<typeof FunctionInput>;

// ---------------------------------------------------------------- triggers

export const TRIGGER_EVENTS = ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'] as const;
export const TriggerEvent = Type.Union(TRIGGER_EVENTS.map((e) => Type.Literal(e)));
export type TriggerEvent = Static<typeof TriggerEvent>;
export const TRIGGER_ACTIVATIONS = ['BEFORE', 'AFTER', 'INSTEAD OF'] as const;
export const TriggerActivation = Type.Union(TRIGGER_ACTIVATIONS.map((a) => Type.Literal(a)));
export const TRIGGER_ORIENTATIONS = ['ROW', 'STATEMENT'] as const;
export const TriggerOrientation = Type.Union(TRIGGER_ORIENTATIONS.map((o) => Type.Literal(o)));
/** `ORIGIN` fires (the default), `DISABLED` does not; `REPLICA` and `ALWAYS` concern replication. */
export const TRIGGER_ENABLED_MODES = ['ORIGIN', 'REPLICA', 'ALWAYS', 'DISABLED'] as const;
export const TriggerEnabledMode = Type.Union(TRIGGER_ENABLED_MODES.map((m) => Type.Literal(m)));
export type TriggerEnabledMode = Static<typeof TriggerEnabledMode>;

/** postgres-meta's trigger (user triggers; constraint triggers are left out). */
export const PgTrigger = Type.Object({
  id: Type.Integer(),
  table_id: Type.Integer(),
  enabled_mode: TriggerEnabledMode,
  function_args: Type.Array(Type.String()),
  name: Type.String(),
  table: Type.String(),
  schema: Type.String(),
  condition: Nullable(Type.String()),
  orientation: TriggerOrientation,
  activation: TriggerActivation,
  events: Type.Array(TriggerEvent),
  function_schema: Type.String(),
  function_name: Type.String(),
});
export type PgTrigger = Static<typeof PgTrigger>;

export const TriggerCreate = Type.Object(
  {
    name: Identifier,
    table_id: Type.Integer({ minimum: 1, maximum: 4_294_967_295 }),
    function_schema: SchemaName,
    function_name: Identifier,
    activation: TriggerActivation,
    events: Type.Array(TriggerEvent, { minItems: 1, maxItems: 4, uniqueItems: true }),
    orientation: TriggerOrientation,
    /** Passed to the function as TG_ARGV, each a string literal. */
    function_args: Type.Optional(Type.Array(Type.String({ maxLength: 10_000 }), { maxItems: 100 })),
  },
  { additionalProperties: false },
);
export type TriggerCreate = Static<typeof TriggerCreate>;

export const TriggerUpdate = Type.Object(
  { name: Type.Optional(Identifier), enabled_mode: Type.Optional(TriggerEnabledMode) },
  { additionalProperties: false, minProperties: 1 },
);
export type TriggerUpdate = Static<typeof TriggerUpdate>;

// ---------------------------------------------------------------- types

/**
 * postgres-meta's type: every type but tables' row types and (unless asked for) array types: base,
 * enum (labels in order), domain, range and standalone composite types (with their attributes).
 */
export const PgType = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  schema: Type.String(),
  format: Type.String(),
  enums: Type.Array(Type.String()),
  attributes: Type.Array(Type.Object({ name: Type.String(), type_id: Type.Integer() })),
  comment: Nullable(Type.String()),
  /** The composite type's relation (pg_class oid), null for other types. */
  type_relation_id: Nullable(Type.Integer()),
});
export type PgType = Static<typeof PgType>;

/** Postgres keeps at most 63 bytes of an enum label (checked in bytes by the service). */
const EnumLabel = Type.String({ minLength: 1, maxLength: 63 });

export const EnumTypeCreate = Type.Object(
  {
    name: Identifier,
    schema: SchemaName,
    values: Type.Array(EnumLabel, { minItems: 1, maxItems: 1000, uniqueItems: true }),
    comment: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  { additionalProperties: false },
);
export type EnumTypeCreate = Static<typeof EnumTypeCreate>;

/** Rename the type, rename labels, then add labels (each after `after`, or at the end). */
export const EnumTypeUpdate = Type.Object(
  {
    name: Type.Optional(Identifier),
    rename_values: Type.Optional(Type.Array(Type.Object({ from: EnumLabel, to: EnumLabel }, { additionalProperties: false }), { maxItems: 1000 })),
    add_values: Type.Optional(
      Type.Array(Type.Object({ value: EnumLabel, after: Type.Optional(EnumLabel) }, { additionalProperties: false }), { maxItems: 1000 }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type EnumTypeUpdate = Static<typeof EnumTypeUpdate>;

// ---------------------------------------------------------------- extensions

/** postgres-meta's extension: every available one, with the installed version and schema when installed. */
export const PgExtension = Type.Object({
  name: Type.String(),
  schema: Nullable(Type.String()),
  default_version: Nullable(Type.String()),
  installed_version: Nullable(Type.String()),
  comment: Nullable(Type.String()),
});
export type PgExtension = Static<typeof PgExtension>;

export const ExtensionCreate = Type.Object(
  {
    name: Identifier,
    schema: Type.Optional(SchemaName),
    version: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    /** Also installs the extensions it requires. */
    cascade: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ExtensionCreate = Static<typeof ExtensionCreate>;

/** An object outside the extension that depends on it, and so is dropped with it by a cascade. */
export const ExtensionDependent = Type.Object({
  /** Postgres's own description: `table public.docs column tags`, `index public.docs_trgm`. */
  description: Type.String(),
  type: Type.String(),
});
export type ExtensionDependent = Static<typeof ExtensionDependent>;

export const ExtensionNameParams = Type.Object({ ref: RefParams.properties.ref, name: Identifier });

// ---------------------------------------------------------------- indexes

export const INDEX_METHODS = ['btree', 'hash', 'gist', 'gin', 'brin', 'spgist'] as const;
export const IndexMethod = Type.Union(INDEX_METHODS.map((m) => Type.Literal(m)));
export type IndexMethod = Static<typeof IndexMethod>;

/** postgres-meta's index, with the table, name, columns, size and scan count the indexes page shows. */
export const PgIndex = Type.Object({
  id: Type.Integer(),
  table_id: Type.Integer(),
  schema: Type.String(),
  number_of_attributes: Type.Integer(),
  number_of_key_attributes: Type.Integer(),
  is_unique: Type.Boolean(),
  is_primary: Type.Boolean(),
  is_exclusion: Type.Boolean(),
  is_immediate: Type.Boolean(),
  is_clustered: Type.Boolean(),
  is_valid: Type.Boolean(),
  check_xmin: Type.Boolean(),
  is_ready: Type.Boolean(),
  is_live: Type.Boolean(),
  is_replica_identity: Type.Boolean(),
  /** pg_index's indkey, indcollation, indclass and indoption; 0 in key_attributes is an expression. */
  key_attributes: Type.Array(Type.Integer()),
  collation: Type.Array(Type.Integer()),
  class: Type.Array(Type.Integer()),
  options: Type.Array(Type.Integer()),
  /** The partial index's predicate in Postgres's internal form (pg_index.indpred), as postgres-meta gives it. */
  index_predicate: Nullable(Type.String()),
  comment: Nullable(Type.String()),
  index_definition: Type.String(),
  access_method: Type.String(),
  /** The table columns the index keys on, in index order (expressions have none). */
  index_attributes: Type.Array(Type.Object({ attribute_number: Type.Integer(), attribute_name: Type.String(), data_type: Type.String() })),
  table: Type.String(),
  name: Type.String(),
  columns: Type.Array(Type.String()),
  bytes: Type.Integer(),
  size: Type.String(),
  /** Index scans since the statistics were last reset. */
  scans: Type.Integer(),
});
export type PgIndex = Static<typeof PgIndex>;

export const IndexCreate = Type.Object(
  {
    name: Identifier,
    table_id: Type.Integer({ minimum: 1, maximum: 4_294_967_295 }),
    method: IndexMethod,
    columns: Type.Array(Identifier, { minItems: 1, maxItems: 32, uniqueItems: true }),
    unique: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type IndexCreate = Static<typeof IndexCreate>;

// ---------------------------------------------------------------- publications

export const PublicationTable = Type.Object({ id: Type.Integer(), name: Type.String(), schema: Type.String() });

/** postgres-meta's publication; `tables` is null for a FOR ALL TABLES publication. */
export const PgPublication = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  owner: Type.String(),
  publish_insert: Type.Boolean(),
  publish_update: Type.Boolean(),
  publish_delete: Type.Boolean(),
  publish_truncate: Type.Boolean(),
  tables: Nullable(Type.Array(PublicationTable)),
});
export type PgPublication = Static<typeof PgPublication>;

const PublicationTableRef = Type.Object({ schema: SchemaName, name: Identifier }, { additionalProperties: false });
const PublishFlags = {
  publish_insert: Type.Optional(Type.Boolean()),
  publish_update: Type.Optional(Type.Boolean()),
  publish_delete: Type.Optional(Type.Boolean()),
  publish_truncate: Type.Optional(Type.Boolean()),
};

/** Every operation is published unless switched off; `tables` are the tables it publishes. */
export const PublicationCreate = Type.Object(
  { name: Identifier, ...PublishFlags, tables: Type.Array(PublicationTableRef, { maxItems: 10_000 }) },
  { additionalProperties: false },
);
export type PublicationCreate = Static<typeof PublicationCreate>;

/** Only what changes; `tables` replaces the publication's list. */
export const PublicationUpdate = Type.Object(
  { name: Type.Optional(Identifier), ...PublishFlags, tables: Type.Optional(Type.Array(PublicationTableRef, { maxItems: 10_000 })) },
  { additionalProperties: false, minProperties: 1 },
);
export type PublicationUpdate = Static<typeof PublicationUpdate>;

// ---------------------------------------------------------------- roles

/**
 * The project's standard roles (created by the project bootstrap). Roles are shared by every database
 * of the server, so the dashboard does not rename, change or drop them; nor superusers, nor the
 * predefined `pg_` roles (see `isProtectedRole`).
 */
export const STANDARD_ROLES: readonly string[] = ['anon', 'authenticated', 'service_role', 'authenticator', 'dashboard_user', 'supabase_auth_admin'];
/** Standard roles that run the platform itself (the dashboard, the auth service's hooks): no request acts as one. */
export const PLATFORM_ROLES: readonly string[] = ['dashboard_user', 'supabase_auth_admin'];

/** Whether the dashboard leaves a role alone (the service also refuses its own connection role). */
export function isProtectedRole(role: { name: string; is_superuser: boolean }): boolean {
  return role.is_superuser || role.name.startsWith('pg_') || STANDARD_ROLES.includes(role.name);
}

// ---------------------------------------------------------------- routes

export const databaseRoutes = {
  listFunctions: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/functions', params: RefParams, querystring: DatabaseListQuery, response: Type.Array(PgFunction), access: read }),
  getFunction: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/functions/:id', params: OidParams, response: PgFunction, access: read }),
  createFunction: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/functions', params: RefParams, body: FunctionInput, response: PgFunction, access: write }),
  /** The whole function as the form has it; its oid changes when its arguments do. */
  updateFunction: defineRoute({ service: 'pg-meta', method: 'PATCH', url: '/:ref/functions/:id', params: OidParams, body: FunctionInput, response: PgFunction, access: write }),
  /** Replies with the function as it was. */
  deleteFunction: defineRoute({ service: 'pg-meta', method: 'DELETE', url: '/:ref/functions/:id', params: OidParams, querystring: CascadeQuery, response: PgFunction, access: write }),

  listTriggers: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/triggers', params: RefParams, querystring: DatabaseListQuery, response: Type.Array(PgTrigger), access: read }),
  getTrigger: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/triggers/:id', params: OidParams, response: PgTrigger, access: read }),
  createTrigger: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/triggers', params: RefParams, body: TriggerCreate, response: PgTrigger, access: write }),
  updateTrigger: defineRoute({ service: 'pg-meta', method: 'PATCH', url: '/:ref/triggers/:id', params: OidParams, body: TriggerUpdate, response: PgTrigger, access: write }),
  deleteTrigger: defineRoute({ service: 'pg-meta', method: 'DELETE', url: '/:ref/triggers/:id', params: OidParams, querystring: CascadeQuery, response: PgTrigger, access: write }),

  listTypes: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/types', params: RefParams, querystring: TypeListQuery, response: Type.Array(PgType), access: read }),
  createType: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/types', params: RefParams, body: EnumTypeCreate, response: PgType, status: 201, access: write }),
  updateType: defineRoute({ service: 'pg-meta', method: 'PATCH', url: '/:ref/types/:id', params: OidParams, body: EnumTypeUpdate, response: PgType, access: write }),
  deleteType: defineRoute({ service: 'pg-meta', method: 'DELETE', url: '/:ref/types/:id', params: OidParams, querystring: CascadeQuery, response: PgType, access: write }),

  listExtensions: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/extensions', params: RefParams, querystring: PagingQuery, response: Type.Array(PgExtension), access: read }),
  getExtension: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/extensions/:name', params: ExtensionNameParams, response: PgExtension, access: read }),
  createExtension: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/extensions', params: RefParams, body: ExtensionCreate, response: PgExtension, access: write }),
  /** What a cascading disable would drop besides the extension's own objects (from pg_depend). */
  extensionDependents: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/extensions/:name/dependents', params: ExtensionNameParams, response: Type.Array(ExtensionDependent), access: read }),
  deleteExtension: defineRoute({ service: 'pg-meta', method: 'DELETE', url: '/:ref/extensions/:name', params: ExtensionNameParams, querystring: CascadeQuery, response: PgExtension, access: write }),

  listIndexes: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/indexes', params: RefParams, querystring: DatabaseListQuery, response: Type.Array(PgIndex), access: read }),
  getIndex: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/indexes/:id', params: OidParams, response: PgIndex, access: read }),
  createIndex: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/indexes', params: RefParams, body: IndexCreate, response: PgIndex, status: 201, access: write }),
  deleteIndex: defineRoute({ service: 'pg-meta', method: 'DELETE', url: '/:ref/indexes/:id', params: OidParams, response: PgIndex, access: write }),

  listPublications: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/publications', params: RefParams, querystring: PagingQuery, response: Type.Array(PgPublication), access: read }),
  getPublication: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/publications/:id', params: OidParams, response: PgPublication, access: read }),
  createPublication: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/publications', params: RefParams, body: PublicationCreate, response: PgPublication, access: write }),
  updatePublication: defineRoute({ service: 'pg-meta', method: 'PATCH', url: '/:ref/publications/:id', params: OidParams, body: PublicationUpdate, response: PgPublication, access: write }),
  deletePublication: defineRoute({ service: 'pg-meta', method: 'DELETE', url: '/:ref/publications/:id', params: OidParams, response: PgPublication, access: write }),
};
