import type { Generated, Insertable, Selectable } from 'kysely';
import type { OrgRole } from '@dash/contracts';

/** Every table lives in the `platform` schema; queries go through `Kysely.withSchema('platform')`. */
export const PLATFORM_SCHEMA = 'platform';

export type ProjectStatus = 'ACTIVE_HEALTHY' | 'COMING_UP' | 'INACTIVE';
/** The billing plan decides the storage upload limit: fixed on `free`, up to 5 GB on `pro`. */
export type ProjectPlan = 'free' | 'pro';

export interface UsersTable {
  id: Generated<string>;
  /** Always stored lowercased (a check constraint enforces it). */
  email: string;
  name: string;
  /** `scrypt$N$r$p$salt$hash` */
  password_hash: string;
  created_at: Generated<Date>;
}

export interface SessionsTable {
  /** sha256 (hex) of the cookie token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  created_at: Generated<Date>;
  expires_at: Date;
}

export interface OrganizationsTable {
  id: Generated<number>;
  slug: string;
  name: string;
  created_at: Generated<Date>;
}

export interface MembersTable {
  org_id: number;
  user_id: string;
  role: OrgRole;
  created_at: Generated<Date>;
}

export interface ProjectsTable {
  id: Generated<number>;
  ref: string;
  name: string;
  org_id: number;
  status: ProjectStatus;
  /**
   * AES-256-GCM ciphertext (see crypto.ts) of the project database's URL as the server's superuser: used
   * to provision (bootstrap) the database, never to serve a request.
   */
  connection_encrypted: string;
  /** Ciphertext of the project roles' passwords (JSON); null for a project made before them (see migration 0006). */
  role_passwords_encrypted: string | null;
  inserted_at: Generated<Date>;
  plan: Generated<ProjectPlan>;
  /** AES-256-GCM ciphertext of the secret that signs the project's API keys; null until first read. */
  jwt_secret_encrypted: string | null;
}

export interface RemoteVersionsTable {
  id: Generated<number>;
  name: string;
  version: string;
  entry: string;
  contract: number;
  mount: string;
  title: string;
  published_at: Generated<Date>;
  active: Generated<boolean>;
}

export interface ProjectAuthConfigTable {
  project_id: number;
  external_anonymous_users_enabled: Generated<boolean>;
  updated_at: Generated<Date>;
}

export interface ProjectStorageConfigTable {
  project_id: number;
  /** Bytes; no row means DEFAULT_UPLOAD_LIMIT_BYTES. */
  file_size_limit: number;
  updated_at: Generated<Date>;
}

export type ContentVisibility = 'user' | 'project';

/** A SQL snippet (migration 0005); `version` increments with every save. */
export interface ContentTable {
  /** Chosen by the browser, so a retried create finds its own row. */
  id: string;
  project_id: number;
  owner_id: string;
  type: Generated<'sql'>;
  name: string;
  description: string | null;
  visibility: ContentVisibility;
  sql: string;
  favorite: Generated<boolean>;
  version: Generated<number>;
  inserted_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ContentVersionsTable {
  content_id: string;
  version: number;
  name: string;
  sql: string;
  saved_at: Generated<Date>;
  /** Null once the saver's user is deleted. */
  saved_by: string | null;
}

export interface ProjectSqlEditorConfigTable {
  project_id: number;
  /** No row means SQL_EDITOR_STATEMENT_TIMEOUT_MS. */
  statement_timeout_ms: number;
  updated_at: Generated<Date>;
}

export interface Database {
  content: ContentTable;
  content_versions: ContentVersionsTable;
  project_sql_editor_config: ProjectSqlEditorConfigTable;
  users: UsersTable;
  sessions: SessionsTable;
  organizations: OrganizationsTable;
  members: MembersTable;
  projects: ProjectsTable;
  remote_versions: RemoteVersionsTable;
  project_auth_config: ProjectAuthConfigTable;
  project_storage_config: ProjectStorageConfigTable;
}

export type UserRow = Selectable<UsersTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type RemoteVersionRow = Selectable<RemoteVersionsTable>;
export type NewUser = Insertable<UsersTable>;
export type ContentRow = Selectable<ContentTable>;
