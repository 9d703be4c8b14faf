import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { AddonType, AssuranceLevel, AuditAction, BackupKind, BackupStatus, OrgRole, ProvisioningStep, RegistryArea, Theme } from '@dash/contracts';

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
  /** The account's theme (migration 0008). */
  theme: Generated<Theme>;
}

export interface SessionsTable {
  /** sha256 (hex) of the cookie token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  created_at: Generated<Date>;
  expires_at: Date;
  /** Assurance level reached (migration 0008): aal2 once a second factor was verified in this session. */
  aal: Generated<AssuranceLevel>;
}

export interface OrganizationsTable {
  id: Generated<number>;
  slug: string;
  name: string;
  /** Flags the organization has turned on (migration 0012). */
  feature_flags: Generated<Record<string, unknown>>;
  created_at: Generated<Date>;
  /** Billed through a partner marketplace (migration 0009): no invoices in the dashboard. */
  billing_via_partner: Generated<boolean>;
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
  /** How far bringing the project up has got (migration 0010); `ready` once it is. */
  provisioning_step: Generated<ProvisioningStep>;
  /** The last failure while coming up; null after a success. */
  provisioning_error: string | null;
  provisioning_attempts: Generated<number>;
  /** When it was paused; null unless INACTIVE. */
  paused_at: Date | null;
  /** When the JWT secret was last rotated (migration 0011); null while it is the first one. */
  jwt_secret_rotated_at: Date | null;
  /** When the admin role's password was last reset from the dashboard; null if never. */
  database_password_reset_at: Date | null;
  /** AES-256-GCM ciphertext of the key that encrypts the project's vault secrets; null until first use. */
  vault_key_encrypted: string | null;
  /** The backup a project coming up is restored from (migration 0017); null otherwise. */
  restore_from: ColumnType<number | null, number | null | undefined, number | null>;
}

/** One pg_dump run of a project (migration 0017). */
export interface BackupsTable {
  id: ColumnType<number, never, never>;
  project_id: number;
  kind: BackupKind;
  status: Generated<BackupStatus>;
  /** The UTC day a scheduled backup covers; null for an on-demand one. */
  scheduled_for: ColumnType<Date | null, string | null | undefined, never>;
  created_by: string | null;
  created_at: Generated<Date>;
  completed_at: Date | null;
  size_bytes: ColumnType<number | null, number | null | undefined, number | null>;
  error: string | null;
  /** The moment a point-in-time backup recovers to; null for the other kinds. */
  recovery_target: ColumnType<Date | null, Date | null | undefined, never>;
}

/** The SQL file of a completed backup. */
export interface BackupFilesTable {
  backup_id: number;
  content: Buffer;
}

export interface RemoteVersionsTable {
  id: Generated<number>;
  name: string;
  version: string;
  entry: string;
  contract: number;
  mount: string;
  title: string;
  /** JSON of the registry's `areas` (contract 2); null for a contract-1 remote. */
  areas: ColumnType<RegistryArea[] | null, string | null, string | null>;
  published_at: Generated<Date>;
  active: Generated<boolean>;
}

export interface ProjectAuthConfigTable {
  project_id: number;
  external_anonymous_users_enabled: Generated<boolean>;
  site_url: Generated<string>;
  /** Seconds. */
  jwt_expiry: Generated<number>;
  /** The hosted auth settings that differ from the defaults (`AuthHostedConfig`'s keys). */
  hosted: Generated<Record<string, unknown>>;
  updated_at: Generated<Date>;
}

export interface ProjectStorageConfigTable {
  project_id: number;
  /** Bytes; no row means DEFAULT_UPLOAD_LIMIT_BYTES. */
  file_size_limit: number;
  updated_at: Generated<Date>;
}

export type ContentVisibility = 'user' | 'project';

/** What a content item is: a SQL snippet, a custom report (migration 0014) or a saved logs explorer query (0015). */
export type ContentType = 'sql' | 'report' | 'log_sql';

/** A SQL snippet (migration 0005) or a custom report (0014); `version` increments with every save. */
export interface ContentTable {
  /** Chosen by the browser, so a retried create finds its own row. */
  id: string;
  project_id: number;
  owner_id: string;
  type: Generated<ContentType>;
  name: string;
  description: string | null;
  visibility: ContentVisibility;
  sql: string;
  favorite: Generated<boolean>;
  /** A report's content (schema_version, period, layout); null for a snippet. */
  report: ColumnType<unknown, string | null | undefined, string | null>;
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

/** Settings → API's data API settings (migration 0019); no row means DATA_API_SETTINGS_DEFAULT. */
export interface ProjectDataApiConfigTable {
  project_id: number;
  schemas: string[];
  extra_search_path: string[];
  max_rows: number;
  aggregates_enabled: boolean;
  pre_request: string | null;
  updated_at: Generated<Date>;
}

/** Settings → Authentication's SMTP settings (migration 0020_auth_smtp); no row means AUTH_SMTP_DEFAULTS. */
export interface ProjectAuthSmtpTable {
  project_id: number;
  enabled: boolean;
  admin_email: string;
  sender_name: string;
  host: string;
  port: number;
  username: string;
  /** Encrypted with the platform's cipher, bound to the project ref; null until one is given. */
  password_encrypted: string | null;
  /** Seconds. */
  max_frequency: number;
  updated_at: Generated<Date>;
}

export interface ProjectSqlEditorConfigTable {
  project_id: number;
  /** No row means SQL_EDITOR_STATEMENT_TIMEOUT_MS. */
  statement_timeout_ms: number;
  updated_at: Generated<Date>;
}

/** One audit log entry (migration 0007); see `contracts/src/audit.ts` for the actions. */
export interface AuditEventsTable {
  id: Generated<string>;
  action: AuditAction;
  actor_id: string | null;
  actor_email: string | null;
  org_id: number | null;
  organization_slug: string | null;
  project_ref: string | null;
  target: string;
  details: Generated<Record<string, unknown>>;
  created_at: Generated<Date>;
}

/** A pending invitation to an organization (migration 0009); the link's token is kept only as its sha256. */
export interface InvitationsTable {
  id: Generated<string>;
  org_id: number;
  /** Lowercased, like users.email. */
  email: string;
  role: OrgRole;
  token_hash: string;
  invited_by: string | null;
  created_at: Generated<Date>;
  expires_at: Date;
}

/** An OAuth app registered by an organization (migration 0009); the client secret is kept only as its sha256. */
export interface OAuthAppsTable {
  id: Generated<string>;
  org_id: number;
  name: string;
  client_id: string;
  client_secret_hash: string;
  redirect_uris: string[];
  created_by: string | null;
  created_at: Generated<Date>;
}

/**
 * A project's usage in one month (migration 0009), as last measured in that month: the statements of
 * past months come from here. Kept by ref and name, so a statement outlives its project.
 */
export interface UsageReadingsTable {
  org_id: number;
  project_ref: string;
  project_name: string;
  plan: ProjectPlan;
  /** `YYYY-MM` (UTC). */
  month: string;
  database_bytes: number;
  storage_bytes: number;
  egress_bytes: number;
  measured_at: Generated<Date>;
}

/** A TOTP factor (migration 0008); one verified factor per user at most. */
export interface MfaFactorsTable {
  id: string;
  user_id: string;
  factor_type: Generated<'totp'>;
  friendly_name: string;
  /** The base32 secret, encrypted with the platform's cipher (context `mfa-factor:<id>`). */
  secret_encrypted: string;
  status: Generated<'unverified' | 'verified'>;
  /** The newest TOTP step a code was accepted for: codes of that step or earlier are refused (no replay). */
  last_used_step: number | null;
  created_at: Generated<Date>;
  verified_at: Date | null;
}

export interface MfaRecoveryCodesTable {
  factor_id: string;
  /** sha256 (hex) of the normalized code. */
  code_hash: string;
  used_at: Date | null;
  created_at: Generated<Date>;
}

/** A personal access token (migration 0008); the secret itself is never stored. */
export interface AccessTokensTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  token_hash: string;
  prefix: string;
  created_at: Generated<Date>;
  expires_at: Date | null;
  last_used_at: Date | null;
}

/** A project's selected add-on (migration 0011): one variant per type. */
export interface ProjectAddonsTable {
  project_id: number;
  type: AddonType;
  variant: string;
  selected_at: Generated<Date>;
}

export interface Database {
  audit_events: AuditEventsTable;
  mfa_factors: MfaFactorsTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  access_tokens: AccessTokensTable;
  invitations: InvitationsTable;
  oauth_apps: OAuthAppsTable;
  usage_readings: UsageReadingsTable;
  content: ContentTable;
  content_versions: ContentVersionsTable;
  project_sql_editor_config: ProjectSqlEditorConfigTable;
  project_data_api_config: ProjectDataApiConfigTable;
  project_auth_smtp: ProjectAuthSmtpTable;
  users: UsersTable;
  sessions: SessionsTable;
  organizations: OrganizationsTable;
  members: MembersTable;
  projects: ProjectsTable;
  remote_versions: RemoteVersionsTable;
  project_auth_config: ProjectAuthConfigTable;
  project_storage_config: ProjectStorageConfigTable;
  project_addons: ProjectAddonsTable;
  backups: BackupsTable;
  backup_files: BackupFilesTable;
}

export type UserRow = Selectable<UsersTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type RemoteVersionRow = Selectable<RemoteVersionsTable>;
export type NewUser = Insertable<UsersTable>;
export type ContentRow = Selectable<ContentTable>;
