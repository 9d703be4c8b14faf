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
};
