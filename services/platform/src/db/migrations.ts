import { sql, type Kysely, type Migration } from 'kysely';

// Migrations are append-only: never edit one that has shipped, add the next instead.
// Every statement names its schema explicitly; the Migrator keeps its history in `platform` too.

async function run(db: Kysely<unknown>, statements: string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export const platformMigrations: Record<string, Migration> = {
  '0001_identity_and_projects': {
    up: (db) =>
      run(db, [
        `create table platform.users (
          id uuid primary key default gen_random_uuid(),
          email text not null unique check (email = lower(email) and length(email) between 3 and 320),
          name text not null,
          password_hash text not null,
          created_at timestamptz not null default now()
        )`,
        `create table platform.sessions (
          token_hash text primary key check (token_hash ~ '^[0-9a-f]{64}$'),
          user_id uuid not null references platform.users (id) on delete cascade,
          created_at timestamptz not null default now(),
          expires_at timestamptz not null
        )`,
        `create index sessions_user_id on platform.sessions (user_id)`,
        `create index sessions_expires_at on platform.sessions (expires_at)`,
        `create table platform.organizations (
          id serial primary key,
          slug text not null unique check (slug ~ '^[a-z0-9-]{1,64}$'),
          name text not null,
          created_at timestamptz not null default now()
        )`,
        `create table platform.members (
          org_id integer not null references platform.organizations (id) on delete cascade,
          user_id uuid not null references platform.users (id) on delete cascade,
          role text not null check (role in ('owner', 'administrator', 'developer', 'read_only')),
          created_at timestamptz not null default now(),
          primary key (org_id, user_id)
        )`,
        `create index members_user_id on platform.members (user_id)`,
        `create table platform.projects (
          id serial primary key,
          ref text not null unique check (ref ~ '^[a-z0-9-]{1,64}$'),
          name text not null,
          org_id integer not null references platform.organizations (id) on delete restrict,
          status text not null default 'ACTIVE_HEALTHY' check (status in ('ACTIVE_HEALTHY', 'COMING_UP', 'INACTIVE')),
          connection_encrypted text not null,
          inserted_at timestamptz not null default now()
        )`,
        `create index projects_org_id on platform.projects (org_id)`,
      ]),
  },
  '0002_remote_registry': {
    up: (db) =>
      run(db, [
        `create table platform.remote_versions (
          id serial primary key,
          name text not null,
          version text not null,
          entry text not null,
          contract integer not null check (contract >= 1),
          mount text not null,
          title text not null,
          published_at timestamptz not null default clock_timestamp(),
          active boolean not null default false,
          unique (name, version)
        )`,
        // At most one active version per remote.
        `create unique index remote_versions_one_active on platform.remote_versions (name) where active`,
        `create index remote_versions_history on platform.remote_versions (name, published_at desc, id desc)`,
      ]),
  },
  '0003_project_auth_config': {
    up: (db) =>
      run(db, [
        // One row per project once its auth configuration is first changed; no row reads as the defaults.
        `create table platform.project_auth_config (
          project_id integer primary key references platform.projects (id) on delete cascade,
          external_anonymous_users_enabled boolean not null default false,
          updated_at timestamptz not null default now()
        )`,
      ]),
  },
  '0004_project_storage': {
    up: (db) =>
      run(db, [
        `alter table platform.projects add column plan text not null default 'free' check (plan in ('free', 'pro'))`,
        // The secret that signs the project's API keys, encrypted like the connection string; null until
        // first read, when it is generated.
        `alter table platform.projects add column jwt_secret_encrypted text`,
        // One row per project once its upload limit is first changed; no row reads as the default limit.
        `create table platform.project_storage_config (
          project_id integer primary key references platform.projects (id) on delete cascade,
          file_size_limit bigint not null check (file_size_limit > 0),
          updated_at timestamptz not null default now()
        )`,
      ]),
  },
  '0005_content': {
    up: (db) =>
      run(db, [
        // The content store: SQL snippets (the only type so far). The id is the browser's, so a retried
        // create is the same row. Bounds are literals here: a migration must not move with the constants.
        `create table platform.content (
          id uuid primary key,
          project_id integer not null references platform.projects (id) on delete cascade,
          owner_id uuid not null references platform.users (id) on delete cascade,
          type text not null default 'sql' check (type = 'sql'),
          name text not null,
          description text,
          visibility text not null default 'user' check (visibility in ('user', 'project')),
          sql text not null default '',
          favorite boolean not null default false,
          version integer not null default 1 check (version >= 1),
          inserted_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        )`,
        `create index content_project_updated on platform.content (project_id, updated_at desc)`,
        `create index content_owner_id on platform.content (owner_id)`,
        // Saved name and SQL per version (the newest SNIPPET_VERSIONS_KEPT are kept). The saver may be
        // deleted later without losing the history.
        `create table platform.content_versions (
          content_id uuid not null references platform.content (id) on delete cascade,
          version integer not null check (version >= 1),
          name text not null,
          sql text not null,
          saved_at timestamptz not null default now(),
          saved_by uuid references platform.users (id) on delete set null,
          primary key (content_id, version)
        )`,
        `create index content_versions_saved_by on platform.content_versions (saved_by)`,
        // One row per project once its SQL editor settings are first changed; no row reads as the default.
        `create table platform.project_sql_editor_config (
          project_id integer primary key references platform.projects (id) on delete cascade,
          statement_timeout_ms integer not null check (statement_timeout_ms between 1000 and 3600000),
          updated_at timestamptz not null default now()
        )`,
      ]),
  },
  '0006_project_roles': {
    up: (db) =>
      run(db, [
        // The passwords of the project's login roles (admin, read_only, storage) as encrypted JSON; null
        // for a project made before the roles existed, until the platform's start bootstraps them.
        `alter table platform.projects add column role_passwords_encrypted text`,
      ]),
  },
  '0007_audit': {
    up: (db) =>
      run(db, [
        // Append-only. Organization and project are kept by id and by name at the time: the log outlives a
        // deleted project, so no foreign keys; actors are kept by email too for the same reason.
        `create table platform.audit_events (
          id bigserial primary key,
          action text not null,
          actor_id uuid,
          actor_email text,
          org_id integer,
          organization_slug text,
          project_ref text,
          target text not null,
          details jsonb not null default '{}',
          created_at timestamptz not null default now()
        )`,
        `create index audit_events_org on platform.audit_events (org_id, created_at desc, id desc)`,
        `create index audit_events_actor on platform.audit_events (actor_id, created_at desc, id desc)`,
      ]),
  },
  '0012_remote_areas_and_flags': {
    up: (db) =>
      run(db, [
        // A contract-2 remote serves several areas (JSON list of { mount, title, gates }); null for contract 1.
        `alter table platform.remote_versions add column areas jsonb`,
        // Feature flags an organization has turned on ({ "warehouse": true }); the deployment may override them.
        `alter table platform.organizations add column feature_flags jsonb not null default '{}'`,
      ]),
  },
  '0009_organizations': {
    up: (db) =>
      run(db, [
        `alter table platform.organizations add column billing_via_partner boolean not null default false`,
        // One pending invitation per email and organization; the link's token only as its sha256.
        `create table platform.invitations (
          id uuid primary key default gen_random_uuid(),
          org_id integer not null references platform.organizations (id) on delete cascade,
          email text not null check (email = lower(email) and length(email) between 3 and 320),
          role text not null check (role in ('owner', 'administrator', 'developer', 'read_only')),
          token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
          invited_by uuid references platform.users (id) on delete set null,
          created_at timestamptz not null default now(),
          expires_at timestamptz not null,
          unique (org_id, email)
        )`,
        `create index invitations_invited_by on platform.invitations (invited_by)`,
        // The client secret only as its sha256 (it is 32 random bytes: a slow hash adds nothing).
        `create table platform.oauth_apps (
          id uuid primary key default gen_random_uuid(),
          org_id integer not null references platform.organizations (id) on delete cascade,
          name text not null check (length(name) between 1 and 100),
          client_id text not null unique,
          client_secret_hash text not null check (client_secret_hash ~ '^[0-9a-f]{64}$'),
          redirect_uris text[] not null check (cardinality(redirect_uris) between 1 and 10),
          created_by uuid references platform.users (id) on delete set null,
          created_at timestamptz not null default now()
        )`,
        `create index oauth_apps_org on platform.oauth_apps (org_id, created_at)`,
        `create index oauth_apps_created_by on platform.oauth_apps (created_by)`,
        // A project's usage per month as last measured then; by ref and name so statements outlive projects.
        `create table platform.usage_readings (
          org_id integer not null references platform.organizations (id) on delete cascade,
          project_ref text not null,
          project_name text not null,
          plan text not null check (plan in ('free', 'pro')),
          month text not null check (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
          database_bytes bigint not null check (database_bytes >= 0),
          storage_bytes bigint not null check (storage_bytes >= 0),
          egress_bytes bigint not null check (egress_bytes >= 0),
          measured_at timestamptz not null default now(),
          primary key (org_id, month, project_ref)
        )`,
      ]),
  },
  '0010_project_lifecycle': {
    up: (db) =>
      run(db, [
        // Where bringing a COMING_UP project up has got to, and its last failure; projects made before
        // this are ready. The platform resumes every COMING_UP project at start.
        `alter table platform.projects add column provisioning_step text not null default 'ready'
          check (provisioning_step in ('requested', 'creating_database', 'configuring', 'ready'))`,
        `alter table platform.projects add column provisioning_error text`,
        `alter table platform.projects add column provisioning_attempts integer not null default 0 check (provisioning_attempts >= 0)`,
        `alter table platform.projects add column paused_at timestamptz`,
        `alter table platform.projects add constraint projects_paused_at_inactive check (paused_at is null or status = 'INACTIVE')`,
      ]),
  },
  '0008_account': {
    up: (db) =>
      run(db, [
        // Dark, the dashboard's look so far, until the user picks light or the system's.
        `alter table platform.users add column theme text not null default 'dark' check (theme in ('light', 'dark', 'system'))`,
        // A session starts at aal1 (password) and reaches aal2 with a second factor.
        `alter table platform.sessions add column aal text not null default 'aal1' check (aal in ('aal1', 'aal2'))`,
        // TOTP factors. The secret is encrypted like connection strings (bound to the factor id);
        // last_used_step is the newest 30-second step a code was accepted for, so no code works twice.
        `create table platform.mfa_factors (
          id uuid primary key,
          user_id uuid not null references platform.users (id) on delete cascade,
          factor_type text not null default 'totp' check (factor_type = 'totp'),
          friendly_name text not null check (length(friendly_name) between 1 and 64),
          secret_encrypted text not null,
          status text not null default 'unverified' check (status in ('unverified', 'verified')),
          last_used_step bigint,
          created_at timestamptz not null default now(),
          verified_at timestamptz
        )`,
        `create index mfa_factors_user_id on platform.mfa_factors (user_id)`,
        `create unique index mfa_factors_one_verified on platform.mfa_factors (user_id) where status = 'verified'`,
        // Single-use recovery codes of a verified factor, as sha256 (they are random, not passwords).
        `create table platform.mfa_recovery_codes (
          factor_id uuid not null references platform.mfa_factors (id) on delete cascade,
          code_hash text not null check (code_hash ~ '^[0-9a-f]{64}$'),
          used_at timestamptz,
          created_at timestamptz not null default now(),
          primary key (factor_id, code_hash)
        )`,
        // Personal access tokens: only the sha256 of the secret, and its first characters to tell them apart.
        `create table platform.access_tokens (
          id uuid primary key default gen_random_uuid(),
          user_id uuid not null references platform.users (id) on delete cascade,
          name text not null check (length(name) between 1 and 64),
          token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
          prefix text not null,
          created_at timestamptz not null default now(),
          expires_at timestamptz,
          last_used_at timestamptz
        )`,
        `create index access_tokens_user_id on platform.access_tokens (user_id, created_at desc)`,
      ]),
  },
  '0011_project_settings': {
    up: (db) =>
      run(db, [
        // Auth settings beside the anonymous sign-ins switch; bounds as the contract's (literals: a migration
        // must not move with the constants).
        `alter table platform.project_auth_config
          add column site_url text not null default 'http://localhost:3000' check (length(site_url) between 1 and 2048),
          add column jwt_expiry integer not null default 3600 check (jwt_expiry between 30 and 604800)`,
        // When the JWT secret was rotated and the database password reset from the dashboard (null: never),
        // and the key of the project's vault secrets, encrypted like the JWT secret; null until first use.
        `alter table platform.projects
          add column jwt_secret_rotated_at timestamptz,
          add column database_password_reset_at timestamptz,
          add column vault_key_encrypted text`,
        // One variant per add-on type and project.
        `create table platform.project_addons (
          project_id integer not null references platform.projects (id) on delete cascade,
          type text not null check (type in ('pitr', 'custom_domain', 'ipv4')),
          variant text not null,
          selected_at timestamptz not null default now(),
          primary key (project_id, type)
        )`,
      ]),
  },
  '0014_content_reports': {
    up: (db) =>
      run(db, [
        // Custom reports share the content store with SQL snippets: type 'report', always project-wide,
        // their blocks in \`report\` (JSON, checked by the contract's schema on every write).
        `alter table platform.content drop constraint content_type_check`,
        `alter table platform.content add constraint content_type_check check (type in ('sql', 'report'))`,
        `alter table platform.content add column report jsonb`,
        `alter table platform.content add constraint content_report_shape
          check ((type = 'report') = (report is not null) and (type <> 'report' or visibility = 'project'))`,
        `create index content_project_type_updated on platform.content (project_id, type, updated_at desc)`,
      ]),
  },
  // Saved logs explorer queries (H2) share the content store: type 'log_sql', personal, their text in `sql`.
  // After 0014, which wrote the type list this one extends.
  '0015_content_log_sql': {
    up: (db) =>
      run(db, [
        `alter table platform.content drop constraint content_type_check`,
        `alter table platform.content add constraint content_type_check check (type in ('sql', 'report', 'log_sql'))`,
      ]),
  },
  // The hosted auth settings (providers, rate limits, email templates, redirect URLs, hooks) beside the
  // site URL and JWT expiry: one JSON document of the changed keys, checked by the contract on every write.
  '0016_auth_config': {
    up: (db) => run(db, [`alter table platform.project_auth_config add column hosted jsonb not null default '{}'::jsonb check (jsonb_typeof(hosted) = 'object')`]),
  },
  // Database backups: one row per pg_dump run, the SQL file apart (lists never read it). At most one
  // on-demand backup per project runs at a time, and one scheduled backup covers each project and UTC day. A project
  // restored from a backup names it in `restore_from` until it is up (a plain id: the backup may go).
  '0017_database_backups': {
    up: (db) =>
      run(db, [
        `create table platform.backups (
          id bigserial primary key,
          project_id integer not null references platform.projects (id) on delete cascade,
          kind text not null check (kind in ('on-demand', 'scheduled')),
          status text not null default 'RUNNING' check (status in ('RUNNING', 'COMPLETED', 'FAILED')),
          scheduled_for date check ((kind = 'scheduled') = (scheduled_for is not null)),
          created_by uuid references platform.users (id) on delete set null,
          created_at timestamptz not null default now(),
          completed_at timestamptz,
          size_bytes bigint check (size_bytes >= 0),
          error text,
          unique (project_id, scheduled_for)
        )`,
        `create index backups_project_created on platform.backups (project_id, created_at desc)`,
        `create unique index backups_one_on_demand_running on platform.backups (project_id) where status = 'RUNNING' and kind = 'on-demand'`,
        `create table platform.backup_files (
          backup_id bigint primary key references platform.backups (id) on delete cascade,
          content bytea not null
        )`,
        `alter table platform.projects add column restore_from bigint`,
      ]),
  },
  // Point-in-time backups: the project's database as it was at `recovery_target`, recovered from the WAL
  // archive (backups/pitr.ts); the moment is set exactly for them.
  '0018_point_in_time_backups': {
    up: (db) =>
      run(db, [
        `alter table platform.backups drop constraint backups_kind_check`,
        `alter table platform.backups add constraint backups_kind_check check (kind in ('on-demand', 'scheduled', 'point-in-time'))`,
        `alter table platform.backups add column recovery_target timestamptz`,
        `alter table platform.backups add constraint backups_recovery_target check ((kind = 'point-in-time') = (recovery_target is not null))`,
      ]),
  },
  // Settings → API's data API settings: one row per project once first changed; no row reads as the
  // contracts' defaults. Bounds are literals: a migration must not move with the constants.
  '0019_data_api_settings': {
    up: (db) =>
      run(db, [
        `create table platform.project_data_api_config (
          project_id integer primary key references platform.projects (id) on delete cascade,
          schemas text[] not null,
          extra_search_path text[] not null,
          max_rows integer not null check (max_rows between 1 and 1000000),
          aggregates_enabled boolean not null,
          pre_request text,
          updated_at timestamptz not null default now()
        )`,
      ]),
  },
  // Settings → Authentication's SMTP settings: one row per project once first saved. The password is
  // encrypted like the connection string. Bounds are literals: a migration must not move with the constants.
  '0020_auth_smtp': {
    up: (db) =>
      run(db, [
        `create table platform.project_auth_smtp (
          project_id integer primary key references platform.projects (id) on delete cascade,
          enabled boolean not null,
          admin_email text not null check (length(admin_email) <= 320),
          sender_name text not null check (length(sender_name) <= 255),
          host text not null check (length(host) <= 253),
          port integer not null check (port between 1 and 65535),
          username text not null check (length(username) <= 255),
          password_encrypted text,
          max_frequency integer not null check (max_frequency between 0 and 86400),
          updated_at timestamptz not null default now()
        )`,
      ]),
  },
};
