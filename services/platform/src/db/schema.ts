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
  /** AES-256-GCM ciphertext of the project's connection string (see crypto.ts). */
  connection_encrypted: string;
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

export interface Database {
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
