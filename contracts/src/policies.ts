import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, OidParams, RefParams } from './route';
import { access, Permission } from './permissions';
import { PgPolicy, PgSchema } from './pg-meta';
import { Impersonation, RowValues } from './table-editor';

/*
 * Row-level security policies and schemas, in the postgres-meta dialect (paths, field names, integer
 * ids). The service builds every statement: names are quoted identifiers, and the USING and WITH
 * CHECK expressions are SQL the user writes, inserted as one parenthesised expression each (a text
 * that could end the parentheses or the statement is refused).
 */

/** The spec's policy name limit (Postgres's identifier limit: 63 bytes). */
export const POLICY_NAME_MAX_LENGTH = 63;
/** Roles listed on a policy before '+ N more roles'. */
export const POLICY_ROLES_LISTED = 3;
/** Rows a policy preview returns. */
export const POLICY_PREVIEW_ROWS = 20;

export const PolicyCommand = Type.Union([
  Type.Literal('SELECT'),
  Type.Literal('INSERT'),
  Type.Literal('UPDATE'),
  Type.Literal('DELETE'),
  Type.Literal('ALL'),
]);
export type PolicyCommand = Static<typeof PolicyCommand>;

const Identifier = Type.String({ minLength: 1, maxLength: 63 });
/** Blank is answered with the spec's 'Please provide a name for your policy'. */
const PolicyName = Type.String({ maxLength: POLICY_NAME_MAX_LENGTH });
/** A SQL boolean expression; null or blank means none. */
const Expression = Type.Union([Type.String({ maxLength: 100_000 }), Type.Null()]);
/** Target roles; none (or `public`) means every role. */
const PolicyRoles = Type.Array(Identifier, { maxItems: 1000 });

/**
 * The spec's create payload, which is postgres-meta's: `schema` defaults to `public`, `action` to
 * PERMISSIVE (the dashboard's forms always send PERMISSIVE), `command` to ALL.
 */
export const PolicyCreate = Type.Object(
  {
    name: PolicyName,
    schema: Type.Optional(Identifier),
    table: Identifier,
    definition: Type.Optional(Expression),
    check: Type.Optional(Expression),
    action: Type.Optional(Type.Union([Type.Literal('PERMISSIVE'), Type.Literal('RESTRICTIVE')])),
    command: Type.Optional(PolicyCommand),
    roles: Type.Optional(PolicyRoles),
  },
  { additionalProperties: false },
);
export type PolicyCreate = Static<typeof PolicyCreate>;
/** A create payload as the dashboard's forms build it: they always name the command. */
export type PolicyCreateWithCommand = PolicyCreate & { command: PolicyCommand };

/**
 * The spec's update payload: only what changed among name, definition, check and roles (the
 * operation of an existing policy is fixed). Applied in one transaction.
 */
export const PolicyUpdate = Type.Object(
  {
    name: Type.Optional(PolicyName),
    definition: Type.Optional(Expression),
    check: Type.Optional(Expression),
    roles: Type.Optional(PolicyRoles),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type PolicyUpdate = Static<typeof PolicyUpdate>;

/**
 * "Preview before saving": the policy as it would be saved (with `id` when an existing policy is
 * being edited) on the table `table_id`, and the database role to act as (`authenticated` with a user
 * id acts as that user: `sub`, and the email auth.users keeps for it, are in the claims). `sample` is a
 * row to try against WITH CHECK: for INSERT and ALL it is inserted, for UPDATE it is the row as the
 * update would leave it; it is ignored for SELECT and DELETE.
 */
export const PolicyPreviewRequest = Type.Object(
  {
    id: Type.Optional(Type.Integer({ minimum: 1 })),
    table_id: Type.Integer({ minimum: 1 }),
    name: PolicyName,
    definition: Type.Optional(Expression),
    check: Type.Optional(Expression),
    command: PolicyCommand,
    roles: Type.Optional(PolicyRoles),
    role: Impersonation,
    sample: Type.Optional(RowValues),
  },
  { additionalProperties: false },
);
export type PolicyPreviewRequest = Static<typeof PolicyPreviewRequest>;

export const PolicyPreviewColumn = Type.Object({ name: Type.String(), type: Type.String() });

/**
 * What the role would see under the policy, computed in a transaction that is always rolled back:
 * how many rows, the first POLICY_PREVIEW_ROWS of them (long cells cut, ending with '...'), and for a
 * sample row whether the role could write it.
 */
export const PolicyPreview = Type.Object({
  count: Type.Integer(),
  rows: Type.Array(RowValues),
  columns: Type.Array(PolicyPreviewColumn),
  /** Row-level security is off on the table: every role with table privileges sees every row. */
  rls_enabled: Type.Boolean(),
  check: Type.Optional(
    Type.Object({
      passed: Type.Boolean(),
      /** Why the row was refused: Postgres's message, or that the role cannot reach the row. */
      message: Type.Optional(Type.String()),
    }),
  ),
});
export type PolicyPreview = Static<typeof PolicyPreview>;

export const SchemaCreate = Type.Object(
  { name: Identifier, owner: Type.Optional(Identifier) },
  { additionalProperties: false },
);
export type SchemaCreate = Static<typeof SchemaCreate>;

export const SchemaUpdate = Type.Object(
  { name: Type.Optional(Identifier), owner: Type.Optional(Identifier) },
  { additionalProperties: false, minProperties: 1 },
);
export type SchemaUpdate = Static<typeof SchemaUpdate>;

const write = access.project(Permission.TenantSqlAdminWrite);

/** Writes and the preview; the lists are `pgMetaRoutes.listPolicies` and `pgMetaRoutes.listSchemas`. */
export const policiesRoutes = {
  createPolicy: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/policies', params: RefParams, body: PolicyCreate, response: PgPolicy, access: write }),
  updatePolicy: defineRoute({ service: 'pg-meta', method: 'PATCH', url: '/:ref/policies/:id', params: OidParams, body: PolicyUpdate, response: PgPolicy, access: write }),
  /** Replies with the policy as it was. */
  deletePolicy: defineRoute({ service: 'pg-meta', method: 'DELETE', url: '/:ref/policies/:id', params: OidParams, response: PgPolicy, access: write }),
  /**
   * Always rolled back, yet it runs the user's expressions under the chosen role with the dashboard's
   * connection as session user (which may switch roles back): it needs write access, as saving would.
   */
  previewPolicy: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/policies/preview', params: RefParams, body: PolicyPreviewRequest, response: PolicyPreview, access: write }),

  createSchema: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/schemas', params: RefParams, body: SchemaCreate, response: PgSchema, access: write }),
  updateSchema: defineRoute({ service: 'pg-meta', method: 'PATCH', url: '/:ref/schemas/:id', params: OidParams, body: SchemaUpdate, response: PgSchema, access: write }),
  /** Replies with the schema as it was; `cascade` also drops what it contains. */
  deleteSchema: defineRoute({
    service: 'pg-meta',
    method: 'DELETE',
    url: '/:ref/schemas/:id',
    params: OidParams,
    querystring: Type.Object({ cascade: Type.Optional(Type.Boolean()) }),
    response: PgSchema,
    access: write,
  }),
};
