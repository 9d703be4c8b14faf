import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams, Timestamp } from './route';
import { access, Permission } from './permissions';
import {
  SQL_EDITOR_MAX_QUERY_BYTES,
  SQL_EDITOR_STATEMENT_TIMEOUT_MAX_MS,
  SQL_EDITOR_STATEMENT_TIMEOUT_MIN_MS,
} from './constants';

/**
 * The platform's content store, for SQL snippets (type `sql`). Every save stores a version and names the
 * version it was based on: a save based on an older version is refused with 409 (`code: version_conflict`),
 * so a stale tab never overwrites a newer edit.
 */

export const SnippetVisibility = Type.Union([Type.Literal('user'), Type.Literal('project')]);
export type SnippetVisibility = Static<typeof SnippetVisibility>;

const SnippetName = Type.String({ minLength: 1, maxLength: 256, pattern: '\\S' });
const SnippetDescription = Type.Union([Type.String({ maxLength: 1000 }), Type.Null()]);
const SnippetSql = Type.String({ maxLength: SQL_EDITOR_MAX_QUERY_BYTES });
const ContentId = Type.String({ format: 'uuid' });

export const SnippetContent = Type.Object({ sql: SnippetSql, favorite: Type.Boolean() }, { additionalProperties: false });
export type SnippetContent = Static<typeof SnippetContent>;

/** The SQL snippet entity (shell spec, section 3), with its version and who owns it. */
export const SqlSnippet = Type.Object({
  id: ContentId,
  type: Type.Literal('sql'),
  name: Type.String(),
  description: SnippetDescription,
  visibility: SnippetVisibility,
  owner_id: Type.String(),
  owner_name: Type.String(),
  project_id: Type.Integer(),
  content: SnippetContent,
  /** Increments with every save; a save names the version it was based on. */
  version: Type.Integer({ minimum: 1 }),
  inserted_at: Timestamp,
  updated_at: Timestamp,
});
export type SqlSnippet = Static<typeof SqlSnippet>;

export const SnippetVersion = Type.Object({
  version: Type.Integer({ minimum: 1 }),
  name: Type.String(),
  sql: Type.String(),
  saved_at: Timestamp,
  saved_by_name: Type.String(),
});
export type SnippetVersion = Static<typeof SnippetVersion>;

export const SqlEditorSettings = Type.Object({
  statementTimeoutMs: Type.Integer({ minimum: SQL_EDITOR_STATEMENT_TIMEOUT_MIN_MS, maximum: SQL_EDITOR_STATEMENT_TIMEOUT_MAX_MS }),
});
export type SqlEditorSettings = Static<typeof SqlEditorSettings>;

const SnippetParams = Type.Composite([RefParams, Type.Object({ id: ContentId })]);

/** The reply's `code` for a save based on an older version. */
export const VERSION_CONFLICT_CODE = 'version_conflict';

export const contentRoutes = {
  /** The caller's personal snippets and the project's shared ones, newest first. */
  listSnippets: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/content/sql',
    params: RefParams,
    response: Type.Object({ data: Type.Array(SqlSnippet) }),
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  getSnippet: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/content/sql/:id',
    params: SnippetParams,
    response: SqlSnippet,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /** The browser names the id, so a retried create after a lost reply is the same snippet (idempotent). */
  createSnippet: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/content/sql',
    params: RefParams,
    body: Type.Object(
      {
        id: ContentId,
        name: SnippetName,
        description: Type.Optional(SnippetDescription),
        content: SnippetContent,
        visibility: Type.Optional(SnippetVisibility),
      },
      { additionalProperties: false },
    ),
    response: SqlSnippet,
    status: 201,
    access: access.project(Permission.UserContentSqlCreate),
  }),
  /** Owner only. `base_version` must be the snippet's current version, or the reply is 409 and nothing changes. */
  updateSnippet: defineRoute({
    service: 'platform',
    method: 'PATCH',
    url: '/projects/:ref/content/sql/:id',
    params: SnippetParams,
    body: Type.Object(
      {
        base_version: Type.Integer({ minimum: 1 }),
        name: Type.Optional(SnippetName),
        description: Type.Optional(SnippetDescription),
        content: Type.Optional(Type.Partial(SnippetContent, { additionalProperties: false })),
      },
      { additionalProperties: false, minProperties: 2 },
    ),
    response: SqlSnippet,
    access: access.project(Permission.UserContentSqlCreate),
  }),
  /** Owner only: makes a personal snippet a project snippet (there is no way back). */
  shareSnippet: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/content/sql/:id/share',
    params: SnippetParams,
    response: SqlSnippet,
    access: access.project(Permission.UserContentSqlCreate),
  }),
  /** A personal copy of a project snippet, for any member who may create content. */
  duplicateSnippet: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/content/sql/:id/duplicate',
    params: SnippetParams,
    body: Type.Object({ id: ContentId }, { additionalProperties: false }),
    response: SqlSnippet,
    status: 201,
    access: access.project(Permission.UserContentSqlCreate),
  }),
  /**
   * Deletes the caller's own snippets in one transaction: another member's project snippet refuses the
   * whole request (403); ids that do not exist, or are another member's personal snippet (invisible to
   * the caller, so not revealed by a 403), are skipped; when none is left the reply is 404 "Content not found".
   */
  deleteSnippets: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/projects/:ref/content/sql/delete',
    params: RefParams,
    body: Type.Object({ ids: Type.Array(ContentId, { minItems: 1, maxItems: 1000, uniqueItems: true }) }, { additionalProperties: false }),
    response: Type.Object({ deleted: Type.Array(Type.String()) }),
    access: access.project(Permission.UserContentSqlCreate),
  }),
  /** The snippet's saved versions, newest first. Readable by whoever may read the snippet. */
  listSnippetVersions: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/content/sql/:id/versions',
    params: SnippetParams,
    response: Type.Object({ versions: Type.Array(SnippetVersion) }),
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  getSqlEditorSettings: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/config/sql-editor',
    params: RefParams,
    response: SqlEditorSettings,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  updateSqlEditorSettings: defineRoute({
    service: 'platform',
    method: 'PATCH',
    url: '/projects/:ref/config/sql-editor',
    params: RefParams,
    body: SqlEditorSettings,
    response: SqlEditorSettings,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  /** What pg-meta needs to run the editor's SQL: the statement timeout. */
  internalSqlEditorSettings: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/internal/projects/:ref/sql-editor-settings',
    params: RefParams,
    response: SqlEditorSettings,
    access: access.internal,
  }),
};
