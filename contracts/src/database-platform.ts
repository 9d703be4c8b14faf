import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { defineRoute, RefParams } from './route';
import { access, Permission } from './permissions';
import { TriggerActivation, TriggerEnabledMode, TriggerEvent, TriggerOrientation } from './database';

/*
 * The database area's "Platform" pages, read from the project's catalog: foreign data wrappers with
 * their servers and foreign tables, the Supabase CLI's migration history, and database webhooks
 * (triggers that send HTTP requests). postgres-meta has no routes for these, so the shapes are ours.
 */

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const read = access.project(Permission.TenantSqlAdminRead);

// ---------------------------------------------------------------- wrappers

/**
 * One `name=value` option of a wrapper, server or foreign table. `value` is null when the option holds
 * a secret (an API key, a password, a connection string with credentials): the service never sends it.
 */
export const FdwOption = Type.Object({ name: Type.String(), value: Nullable(Type.String()) });
export type FdwOption = Static<typeof FdwOption>;

export const FdwForeignTable = Type.Object({ id: Type.Integer(), schema: Type.String(), name: Type.String(), options: Type.Array(FdwOption) });
export type FdwForeignTable = Static<typeof FdwForeignTable>;

export const FdwServer = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  owner: Type.String(),
  type: Nullable(Type.String()),
  version: Nullable(Type.String()),
  options: Type.Array(FdwOption),
  foreign_tables: Type.Array(FdwForeignTable),
});
export type FdwServer = Static<typeof FdwServer>;

/** A foreign data wrapper, its handler and validator functions (`schema.name`), and its servers. */
export const ForeignDataWrapper = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  owner: Type.String(),
  handler: Nullable(Type.String()),
  validator: Nullable(Type.String()),
  /** The extension that made it (`postgres_fdw`, `wrappers`), when one did. */
  extension: Nullable(Type.String()),
  options: Type.Array(FdwOption),
  servers: Type.Array(FdwServer),
});
export type ForeignDataWrapper = Static<typeof ForeignDataWrapper>;

// ---------------------------------------------------------------- migrations

/** `supabase_migrations.schema_migrations` is there (`present`), is not (`absent`), or the service's role may not read it. */
export const MIGRATIONS_TABLE_STATES = ['present', 'absent', 'unreadable'] as const;
export const MigrationsTableState = Type.Union(MIGRATIONS_TABLE_STATES.map((s) => Type.Literal(s)));

/** One migration the Supabase CLI applied (`supabase db push`): its version (a timestamp), name and statement count. */
export const SchemaMigration = Type.Object({ version: Type.String(), name: Nullable(Type.String()), statements: Type.Integer() });
export type SchemaMigration = Static<typeof SchemaMigration>;

/** Newest first; empty unless the table is `present`. */
export const SchemaMigrations = Type.Object({ table: MigrationsTableState, migrations: Type.Array(SchemaMigration) });
export type SchemaMigrations = Static<typeof SchemaMigrations>;

// ---------------------------------------------------------------- webhooks

/**
 * How a webhook sends its request: `http_request` is a trigger running `supabase_functions.http_request`
 * (the dashboard's webhooks: url, method, headers, params and timeout are its arguments); `function` is a
 * trigger whose own function calls `net.http_get`/`net.http_post`/`net.http_delete`.
 */
export const WEBHOOK_KINDS = ['http_request', 'function'] as const;
export const WebhookKind = Type.Union(WEBHOOK_KINDS.map((k) => Type.Literal(k)));

/** A webhook trigger. Headers and params are not sent: they often hold an authorization secret. */
export const DatabaseWebhook = Type.Object({
  id: Type.Integer(),
  table_id: Type.Integer(),
  name: Type.String(),
  schema: Type.String(),
  table: Type.String(),
  enabled_mode: TriggerEnabledMode,
  orientation: TriggerOrientation,
  activation: TriggerActivation,
  events: Type.Array(TriggerEvent),
  function_schema: Type.String(),
  function_name: Type.String(),
  kind: WebhookKind,
  /** The target, for `http_request` webhooks. */
  url: Nullable(Type.String()),
  method: Nullable(Type.String()),
  timeout_ms: Nullable(Type.Integer()),
});
export type DatabaseWebhook = Static<typeof DatabaseWebhook>;

export const databasePlatformRoutes = {
  listWrappers: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/wrappers', params: RefParams, response: Type.Array(ForeignDataWrapper), access: read }),
  listMigrations: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/migrations', params: RefParams, response: SchemaMigrations, access: read }),
  listWebhooks: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/webhooks', params: RefParams, response: Type.Array(DatabaseWebhook), access: read }),
};
