import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams } from './route';
import { access, Permission } from './permissions';

/*
 * API docs (/project/{ref}/api): what the project's REST API serves, read from the catalog by pg-meta.
 * The spec's payload is "tables and functions, each with name"; the details (columns, types, comments,
 * arguments) are what the generated docs show. Types for apps come from `/generators/typescript`, the
 * route and reply shape of postgres-meta's generator.
 */

/** Schema the docs describe until another one is chosen: the one the REST API exposes by default. */
export const API_DOCS_DEFAULT_SCHEMA = 'public';
export const API_DOCS_PAGES = ['intro', 'auth', 'users', 'tables-intro', 'rpc-intro', 'storage'] as const;
export type ApiDocsPage = (typeof API_DOCS_PAGES)[number];

const SchemaName = Type.String({ minLength: 1, maxLength: 63 });

export const ApiDocsColumn = Type.Object({
  name: Type.String(),
  /** The type as Postgres formats it (`bigint`, `text[]`, `timestamp with time zone`, an enum's name). */
  format: Type.String(),
  /** No default, not nullable, not generated: an insert must give it. */
  required: Type.Boolean(),
  nullable: Type.Boolean(),
  default_value: Type.Union([Type.String(), Type.Null()]),
  comment: Type.Union([Type.String(), Type.Null()]),
  primary_key: Type.Boolean(),
});
export type ApiDocsColumn = Static<typeof ApiDocsColumn>;

export const ApiDocsTable = Type.Object({
  name: Type.String(),
  kind: Type.Union([Type.Literal('table'), Type.Literal('view')]),
  comment: Type.Union([Type.String(), Type.Null()]),
  columns: Type.Array(ApiDocsColumn),
});
export type ApiDocsTable = Static<typeof ApiDocsTable>;

export const ApiDocsArgument = Type.Object({
  name: Type.String(),
  format: Type.String(),
  has_default: Type.Boolean(),
});

export const ApiDocsFunction = Type.Object({
  name: Type.String(),
  /** Input arguments in order (unnamed ones are left out: the REST API calls by name). */
  arguments: Type.Array(ApiDocsArgument),
  return_type: Type.String(),
  returns_set: Type.Boolean(),
  volatility: Type.Union([Type.Literal('immutable'), Type.Literal('stable'), Type.Literal('volatile')]),
  comment: Type.Union([Type.String(), Type.Null()]),
});
export type ApiDocsFunction = Static<typeof ApiDocsFunction>;

export const ApiDocs = Type.Object({
  schema: Type.String(),
  tables: Type.Array(ApiDocsTable),
  functions: Type.Array(ApiDocsFunction),
});
export type ApiDocs = Static<typeof ApiDocs>;

export const TypescriptTypes = Type.Object({ types: Type.String() });
export type TypescriptTypes = Static<typeof TypescriptTypes>;

export const ApiDocsMessages = {
  inactiveTitle: 'Project is not active',
  inactive: 'API docs are not loaded while the project is paused or coming up. Restore the project to see them.',
  loadFailed: (message: string) => `Failed to load API docs: ${message}`,
  noTables: 'No tables or views in this schema',
  noFunctions: 'No functions in this schema',
  resourceNotFound: (name: string) => `No table or view named "${name}" in this schema`,
  rpcNotFound: (name: string) => `No function named "${name}" in this schema`,
  graphqlTitle: 'GraphQL is not enabled',
  graphql: 'This project has no GraphQL endpoint: the pg_graphql extension is not available on this server. Use the REST API described in the API docs instead.',
  typesCopied: 'Types copied to the clipboard',
  typesFailed: (message: string) => `Failed to generate types: ${message}`,
  schemaNotFound: (schema: string) => `Schema "${schema}" not found`,
} as const;

export const apiDocsRoutes = {
  apiDocs: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/api-docs',
    params: RefParams,
    querystring: Type.Object({ schema: Type.Optional(SchemaName) }, { additionalProperties: false }),
    response: ApiDocs,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /**
   * postgres-meta's route and query: `included_schemas` and `excluded_schemas` are comma-separated
   * lists (every schema but the system ones when none is included; a schema that does not exist is
   * left out), `detect_one_to_one_relationships` writes `isOneToOne`, `postgrest_version` writes
   * `__InternalSupabase`. The text is the same as postgres-meta's; the reply wraps it in `{ types }`.
   */
  generateTypescript: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/generators/typescript',
    params: RefParams,
    querystring: Type.Object(
      {
        included_schemas: Type.Optional(Type.String({ maxLength: 2000 })),
        excluded_schemas: Type.Optional(Type.String({ maxLength: 2000 })),
        detect_one_to_one_relationships: Type.Optional(Type.Boolean()),
        postgrest_version: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
      },
      { additionalProperties: false },
    ),
    response: TypescriptTypes,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
};
