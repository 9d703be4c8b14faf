import { randomBytes } from 'node:crypto';
import { databaseOf, quoteIdent, quoteLiteral, standaloneClient } from './db';
import { inTransaction } from './transaction';

/**
 * A project database and its roles.
 *
 * Cluster-wide (shared by every project on the server, created once): `anon`, `authenticated`,
 * `service_role` (bypasses RLS), `authenticator` and `dashboard_user`, the roles apps and policies name.
 *
 * Per project (login roles named after the database, so two projects on one server never share one):
 * - `admin` (`<db>_admin`): owns the database and every schema and object the bootstrap makes, may create
 *   roles (Postgres 16 and later only: from 16 on, CREATEROLE manages only the roles it created, while on
 *   15 it could grant itself `pg_execute_server_program` and more), bypasses RLS like a table owner, and
 *   may `set role` to anon, authenticated and service_role. Not superuser, no CREATEDB: `COPY ... TO
 *   PROGRAM`, `pg_read_file`, `ALTER SYSTEM` and untrusted extensions are refused by Postgres. pg-meta
 *   (catalog, DDL, rows, the SQL editor) runs as this role.
 * - `read_only` (`<db>_ro`): SELECT on every table and sequence of the project (existing, and future ones
 *   the admin creates, through default privileges), read-only transactions by default, nothing else.
 *   Read-only members' SQL runs as this role: a write is refused by privileges, not only by the
 *   transaction mode they could change.
 * - `storage` (`<db>_storage`): the storage service; owns the `storage` tables (the admin, a member, still
 *   writes their policies) and `set role`s to the caller's role (anon, authenticated, service_role) so
 *   storage policies decide. It reads nothing else.
 * - `api` (`<db>_api`): what the data API services log in as (PostgREST's "authenticator"). NOINHERIT,
 *   no privilege of its own but CONNECT: every request `set local role`s to anon, authenticated or
 *   service_role, and it may become no other role. An event trigger tells it of every DDL (see below).
 * - `auth` (`<db>_auth`): the auth service (GoTrue's `supabase_auth_admin`). Reads and writes the `auth`
 *   tables (the admin still owns them, so the Users page and the SQL editor work on the same rows) and
 *   nothing else of its own; a member of the cluster role `supabase_auth_admin`, which is what hosted
 *   projects' docs grant auth hook functions to.
 * Only these roles may connect to the project database. The bootstrap itself runs as the server's
 * superuser: provisioning, never a request.
 */
export const PROJECT_ROLES = ['admin', 'read_only', 'storage', 'api', 'auth'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];
export type ProjectRolePasswords = Record<ProjectRole, string>;
export type ProjectConnections = Record<ProjectRole, string>;

const ROLE_SUFFIX: Record<ProjectRole, string> = { admin: '_admin', read_only: '_ro', storage: '_storage', api: '_api', auth: '_auth' };
/** Postgres identifiers are at most 63 bytes; the longest role suffix must still fit. */
export const MAX_PROJECT_DATABASE_BYTES = 63 - Math.max(...Object.values(ROLE_SUFFIX).map((s) => s.length));

export function projectRoleName(database: string, role: ProjectRole): string {
  return `${database}${ROLE_SUFFIX[role]}`;
}

export function generateRolePasswords(): ProjectRolePasswords {
  const one = () => randomBytes(24).toString('base64url');
  return { admin: one(), read_only: one(), storage: one(), api: one(), auth: one() };
}

/** The connection string of one project role: the server URL of the project database with that role's login. */
export function projectRoleUrl(serverUrl: string, role: ProjectRole, password: string): string {
  const url = new URL(serverUrl);
  url.username = encodeURIComponent(projectRoleName(databaseOf(serverUrl), role));
  url.password = encodeURIComponent(password);
  return url.toString();
}

/** The cluster-wide roles; creating one another bootstrap made at the same moment is fine. */
const CLUSTER_ROLES_SQL = `
do $roles$
declare
  spec record;
begin
  for spec in select * from (values
    ('anon', 'nologin noinherit'),
    ('authenticated', 'nologin noinherit'),
    ('service_role', 'nologin noinherit bypassrls'),
    ('authenticator', 'login noinherit'),
    ('dashboard_user', 'nologin createrole createdb'),
    -- Auth hooks (Postgres functions) are granted to this role, as on a hosted project; each project's auth login is a member.
    ('supabase_auth_admin', 'nologin noinherit')
  ) as r(name, options) loop
    if not exists (select 1 from pg_roles where rolname = spec.name) then
      begin
        execute format('create role %I %s', spec.name, spec.options);
      exception when duplicate_object or unique_violation then null;
      end;
    end if;
  end loop;
end
$roles$;

grant anon, authenticated, service_role to authenticator;
`;

/**
 * The project's schemas, run as the admin role so it owns what they create (and the default privileges
 * it sets apply to the tables it creates later).
 */
const PROJECT_OBJECTS_SQL = `
create schema if not exists auth;
create table if not exists auth.users (
  id uuid primary key default gen_random_uuid(),
  email text unique,
  is_anonymous boolean not null default false,
  created_at timestamptz not null default now()
);
-- The columns auth clients and the dashboard's user list expect (added to older projects' tables too).
alter table auth.users
  add column if not exists instance_id uuid,
  add column if not exists aud varchar(255) default 'authenticated',
  add column if not exists role varchar(255) default 'authenticated',
  add column if not exists encrypted_password varchar(255),
  add column if not exists email_confirmed_at timestamptz,
  add column if not exists invited_at timestamptz,
  add column if not exists confirmation_token varchar(255),
  add column if not exists confirmation_sent_at timestamptz,
  add column if not exists recovery_token varchar(255),
  add column if not exists recovery_sent_at timestamptz,
  add column if not exists email_change varchar(255),
  add column if not exists email_change_sent_at timestamptz,
  add column if not exists last_sign_in_at timestamptz,
  add column if not exists raw_app_meta_data jsonb default '{"provider": "email", "providers": ["email"]}'::jsonb,
  add column if not exists raw_user_meta_data jsonb default '{}'::jsonb,
  add column if not exists is_super_admin boolean,
  add column if not exists updated_at timestamptz default now(),
  add column if not exists phone text unique,
  add column if not exists phone_confirmed_at timestamptz,
  add column if not exists confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  add column if not exists banned_until timestamptz,
  add column if not exists is_sso_user boolean not null default false,
  add column if not exists deleted_at timestamptz;
alter table auth.users
  add column if not exists email_change_token_new varchar(255),
  add column if not exists email_change_token_current varchar(255) default '',
  add column if not exists email_change_confirm_status smallint default 0,
  add column if not exists reauthentication_token varchar(255) default '',
  add column if not exists reauthentication_sent_at timestamptz,
  add column if not exists phone_change text default '',
  add column if not exists phone_change_token varchar(255) default '',
  add column if not exists phone_change_sent_at timestamptz;

-- The auth service finds users by address whatever its case: an index, so a sign-in stays one lookup at a million users.
create index if not exists users_email_lower_idx on auth.users (lower(email));

-- The auth server's tables, with the columns and types Supabase's auth schema has, so SQL written for a
-- hosted project (policies on auth.uid(), joins to identities, session checks) runs here unchanged.
do $types$
begin
  if to_regtype('auth.aal_level') is null then create type auth.aal_level as enum ('aal1', 'aal2', 'aal3'); end if;
  if to_regtype('auth.factor_type') is null then create type auth.factor_type as enum ('totp', 'webauthn', 'phone'); end if;
  if to_regtype('auth.factor_status') is null then create type auth.factor_status as enum ('unverified', 'verified'); end if;
  if to_regtype('auth.code_challenge_method') is null then create type auth.code_challenge_method as enum ('s256', 'plain'); end if;
  if to_regtype('auth.one_time_token_type') is null then
    create type auth.one_time_token_type as enum ('confirmation_token', 'reauthentication_token', 'recovery_token',
      'email_change_token_new', 'email_change_token_current', 'phone_change_token');
  end if;
end
$types$;
create table if not exists auth.identities (
  id uuid primary key default gen_random_uuid(),
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  email text generated always as (lower(identity_data ->> 'email')) stored,
  unique (provider_id, provider)
);
create index if not exists identities_user_id_idx on auth.identities (user_id);
create table if not exists auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  factor_id uuid,
  aal auth.aal_level,
  not_after timestamptz,
  refreshed_at timestamp,
  user_agent text,
  ip inet,
  tag text
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);
create table if not exists auth.refresh_tokens (
  instance_id uuid,
  id bigserial primary key,
  token varchar(255) unique,
  user_id varchar(255),
  revoked boolean,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  parent varchar(255),
  session_id uuid references auth.sessions (id) on delete cascade
);
create index if not exists refresh_tokens_session_id_idx on auth.refresh_tokens (session_id, revoked);
create index if not exists refresh_tokens_parent_idx on auth.refresh_tokens (parent);
create table if not exists auth.mfa_factors (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type auth.factor_type not null,
  status auth.factor_status not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  secret text,
  phone text,
  last_challenged_at timestamptz unique
);
create unique index if not exists mfa_factors_user_friendly_name_unique on auth.mfa_factors (friendly_name, user_id) where trim(friendly_name) <> '';
create table if not exists auth.mfa_challenges (
  id uuid primary key,
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null default now(),
  verified_at timestamptz,
  ip_address inet not null,
  otp_code text
);
create table if not exists auth.mfa_amr_claims (
  id uuid primary key default gen_random_uuid(),
  session_id uuid not null references auth.sessions (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  authentication_method text not null,
  unique (session_id, authentication_method)
);
create table if not exists auth.one_time_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type auth.one_time_token_type not null,
  token_hash text not null check (char_length(token_hash) > 0),
  relates_to text not null,
  created_at timestamp without time zone not null default now(),
  updated_at timestamp without time zone not null default now(),
  unique (user_id, token_type)
);
create index if not exists one_time_tokens_token_hash_idx on auth.one_time_tokens using hash (token_hash);
create table if not exists auth.flow_state (
  id uuid primary key,
  user_id uuid,
  auth_code text not null,
  code_challenge_method auth.code_challenge_method not null,
  code_challenge text not null,
  provider_type text not null,
  provider_access_token text,
  provider_refresh_token text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  authentication_method text not null,
  auth_code_issued_at timestamptz
);
create index if not exists flow_state_auth_code_idx on auth.flow_state (auth_code);
create table if not exists auth.audit_log_entries (
  instance_id uuid,
  id uuid primary key,
  payload json,
  created_at timestamptz,
  ip_address varchar(64) not null default ''
);

create or replace function auth.jwt() returns jsonb language sql stable as $fn$
  select coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb
$fn$;
create or replace function auth.uid() returns uuid language sql stable as $fn$
  select nullif(auth.jwt() ->> 'sub', '')::uuid
$fn$;
create or replace function auth.role() returns text language sql stable as $fn$
  select nullif(auth.jwt() ->> 'role', '')
$fn$;
create or replace function auth.email() returns text language sql stable as $fn$
  select nullif(auth.jwt() ->> 'email', '')
$fn$;

grant usage on schema auth to anon, authenticated, service_role, dashboard_user;
grant execute on all functions in schema auth to anon, authenticated, service_role, dashboard_user;
grant usage on schema public to anon, authenticated, service_role;
grant all on all tables in schema public to anon, authenticated, service_role;
grant all on all sequences in schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant execute on functions to anon, authenticated, service_role;

create schema if not exists storage;
create table if not exists storage.buckets (
  id text primary key,
  name text not null unique,
  owner uuid,
  public boolean not null default false,
  file_size_limit bigint check (file_size_limit is null or file_size_limit >= 0),
  allowed_mime_types text[],
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text not null references storage.buckets (id),
  name text not null,
  owner uuid,
  metadata jsonb,
  version text,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_accessed_at timestamptz not null default now(),
  unique (bucket_id, name)
);
create index if not exists objects_bucket_prefix on storage.objects (bucket_id, name text_pattern_ops);

create or replace function storage.foldername(name text) returns text[] language sql immutable as $fn$
  select (string_to_array(name, '/'))[1:array_length(string_to_array(name, '/'), 1) - 1]
$fn$;
create or replace function storage.filename(name text) returns text language sql immutable as $fn$
  select (string_to_array(name, '/'))[array_length(string_to_array(name, '/'), 1)]
$fn$;
create or replace function storage.extension(name text) returns text language sql immutable as $fn$
  select case when storage.filename(name) like '%.%'
    then reverse(split_part(reverse(storage.filename(name)), '.', 1)) else '' end
$fn$;

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;
grant usage on schema storage to anon, authenticated, service_role, dashboard_user;
grant all on storage.buckets, storage.objects to anon, authenticated, service_role, dashboard_user;
grant execute on all functions in schema storage to anon, authenticated, service_role, dashboard_user;

-- The app's own metadata of an object (storage-js's \`metadata\` option), kept apart from the service's.
alter table storage.objects add column if not exists user_metadata jsonb;
`;

/**
 * pg_stat_statements (the database report's slowest statements, query performance) in schema
 * `extensions`, where the server ships it. It is not a trusted extension, so the bootstrap (superuser)
 * creates it; its view is readable by every role and shows each role its own statements' text. It only
 * counts when the server preloads the library (the embedded server does); the report says how to enable
 * it otherwise.
 *
 * Its view shows every database of the server, so a project's roles do not read it: the bootstrap
 * revokes it (and its functions) from PUBLIC, and `extensions.dash_statements()` (security definer)
 * gives the project's admin and read-only roles this database's rows only, with their text (every
 * project role's, none of the superuser's provisioning).
 *
 * pg_stat_statements_reset() is the superuser's, and with its defaults it forgets every database's
 * statements. `extensions.dash_reset_statements()` resets this database's only, for the project admin
 * role (granted below). It calls the extension's own function by its schema and full argument list
 * (3 arguments up to Postgres 16, 4 from 17), so no function of the same name elsewhere can stand in.
 */
const STAT_STATEMENTS_SQL = `
do $pss$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_stat_statements') then
    create schema if not exists extensions;
    create extension if not exists pg_stat_statements with schema extensions;
    create or replace function extensions.dash_reset_statements() returns void
    language plpgsql security definer set search_path = pg_catalog, pg_temp as $fn$
    declare
      target record;
    begin
      select n.nspname, p.pronargs into target
      from pg_extension e
      join pg_depend d on d.refclassid = 'pg_extension'::regclass and d.refobjid = e.oid and d.classid = 'pg_proc'::regclass and d.deptype = 'e'
      join pg_proc p on p.oid = d.objid
      join pg_namespace n on n.oid = p.pronamespace
      where e.extname = 'pg_stat_statements' and p.proname = 'pg_stat_statements_reset' and p.pronargs in (3, 4)
      order by p.pronargs desc
      limit 1;
      if not found then
        raise exception 'pg_stat_statements is not installed in this database' using errcode = '55000';
      end if;
      execute format('select %I.pg_stat_statements_reset(0::oid, $1, 0::bigint%s)', target.nspname, case when target.pronargs = 4 then ', false' else '' end)
        using (select oid from pg_database where datname = current_database());
    end
    $fn$;
    revoke all on function extensions.dash_reset_statements() from public;
    revoke all on extensions.pg_stat_statements from public;
    revoke all on extensions.pg_stat_statements_info from public;
    revoke all on function extensions.pg_stat_statements(boolean) from public;
    revoke all on function extensions.pg_stat_statements_info() from public;
    -- Plain column types and a body in a string: nothing depends on the extension, which can still be dropped.
    create or replace function extensions.dash_statements()
    returns table (queryid int8, query text, userid oid, dbid oid, calls int8, total_exec_time float8, mean_exec_time float8, max_exec_time float8, rows int8)
    language sql stable security definer set search_path = pg_catalog, pg_temp as $fn$
      select s.queryid, s.query, s.userid, s.dbid, s.calls, s.total_exec_time, s.mean_exec_time, s.max_exec_time, s.rows
      from extensions.pg_stat_statements s
      where s.dbid = (select d.oid from pg_catalog.pg_database d where d.datname = pg_catalog.current_database())
        -- The platform's provisioning (the server's superuser) is not the project's workload.
        and s.userid not in (select r.oid from pg_catalog.pg_roles r where r.rolsuper)
    $fn$;
    revoke all on function extensions.dash_statements() from public;
  end if;
end
$pss$`;

/** pgcrypto in schema `extensions` (where the server ships it): the auth users page hashes passwords with its crypt(). */
const PGCRYPTO_SQL = `
do $pgcrypto$
begin
  if exists (select 1 from pg_available_extensions where name = 'pgcrypto') then
    create schema if not exists extensions;
    create extension if not exists pgcrypto with schema extensions;
  end if;
end
$pgcrypto$`;

/**
 * The data API caches the schema and reloads it on `NOTIFY pgrst, 'reload schema'` (PostgREST's
 * channel and message): these event triggers send it after every DDL command and drop, whoever runs it,
 * so a table made in the table editor is served at once. Event triggers need a superuser to create; the
 * function lives in the superuser-owned `extensions` schema so the project admin cannot replace it.
 * Notifications are sent at commit, once per transaction (Postgres folds duplicates).
 */
const SCHEMA_RELOAD_SQL = `
create schema if not exists extensions;
create or replace function extensions.dash_notify_schema_reload() returns event_trigger
language plpgsql set search_path = pg_catalog, pg_temp as $fn$
begin
  notify pgrst, 'reload schema';
end
$fn$;
do $evt$
begin
  if not exists (select 1 from pg_event_trigger where evtname = 'dash_schema_reload_ddl') then
    create event trigger dash_schema_reload_ddl on ddl_command_end execute function extensions.dash_notify_schema_reload();
  end if;
  if not exists (select 1 from pg_event_trigger where evtname = 'dash_schema_reload_drop') then
    create event trigger dash_schema_reload_drop on sql_drop execute function extensions.dash_notify_schema_reload();
  end if;
end
$evt$`;

/** Postgres 16 changed CREATEROLE to manage only the roles one created (see above). */
const SAFE_CREATEROLE_VERSION = 160000;

function roleAttributes(role: ProjectRole, serverVersion: number): string {
  const common = 'login nosuperuser nocreatedb noreplication';
  if (role === 'admin') return `${common} bypassrls inherit ${serverVersion >= SAFE_CREATEROLE_VERSION ? 'createrole' : 'nocreaterole'}`;
  // The data API's login only ever acts as the role it sets; row-level security is that role's business.
  if (role === 'api') return `${common} nobypassrls noinherit nocreaterole`;
  // Inherits only supabase_auth_admin's grants (the hooks a project grants it).
  if (role === 'auth') return `${common} nobypassrls inherit nocreaterole`;
  return `${common} bypassrls noinherit nocreaterole`;
}

/**
 * The statements that give a project database its roles and ownership, built with quoted names and
 * literals. Objects a superuser made in an older bootstrap pass to the admin role.
 */
function projectRoleStatements(database: string, passwords: ProjectRolePasswords, serverVersion: number, existing: ReadonlySet<string>): string[] {
  const name = (role: ProjectRole) => quoteIdent(projectRoleName(database, role));
  const [admin, readOnly, storage, api, auth] = [name('admin'), name('read_only'), name('storage'), name('api'), name('auth')];
  const statements: string[] = [];
  for (const role of PROJECT_ROLES) {
    const verb = existing.has(projectRoleName(database, role)) ? 'alter' : 'create';
    statements.push(`${verb} role ${name(role)} ${roleAttributes(role, serverVersion)} password ${quoteLiteral(passwords[role])}`);
  }
  const db = quoteIdent(database);
  statements.push(
    `alter role ${readOnly} set default_transaction_read_only = on`,
    `grant anon, authenticated, service_role to ${admin}, ${storage}, ${api}`,
    // The admin sees and may end the other project roles' queries (running queries page).
    `grant ${readOnly}, ${storage}, ${api}, ${auth} to ${admin}`,
    `grant supabase_auth_admin to ${auth}`,
    `alter database ${db} owner to ${admin}`,
    `revoke all on database ${db} from public`,
    `grant connect, temporary on database ${db} to ${readOnly}, ${storage}`,
    `grant connect on database ${db} to ${api}, ${auth}`,
  );
  // Roles the admin creates are ones it can use at once (Postgres 16+ grants the creator ADMIN only).
  if (serverVersion >= SAFE_CREATEROLE_VERSION) statements.push(`alter role ${admin} set createrole_self_grant = 'set, inherit'`);
  statements.push(`
do $own$
declare
  obj record;
begin
  for obj in
    select format('alter %s %s owner to %I',
             case c.relkind when 'S' then 'sequence' when 'v' then 'view' when 'm' then 'materialized view'
                            when 'f' then 'foreign table' else 'table' end,
             c.oid::regclass, ${quoteLiteral(projectRoleName(database, 'admin'))}) as stmt
    from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_roles r on r.oid = c.relowner
    where n.nspname in ('public', 'auth', 'storage') and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S') and r.rolsuper
      and not (c.relkind = 'S' and exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype in ('a', 'i')))
    union all
    select format('alter function %s owner to %I', p.oid::regprocedure, ${quoteLiteral(projectRoleName(database, 'admin'))})
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_roles r on r.oid = p.proowner
    where n.nspname in ('public', 'auth', 'storage') and r.rolsuper
    union all
    select format('alter schema %I owner to %I', n.nspname, ${quoteLiteral(projectRoleName(database, 'admin'))})
    from pg_namespace n join pg_roles r on r.oid = n.nspowner
    where n.nspname in ('auth', 'storage') and r.rolsuper
  loop
    execute obj.stmt;
  end loop;
end
$own$`);
  return statements;
}

/** The project's admin and read-only roles may read this database's statement statistics. */
function statementsGrant(database: string): string {
  const roles = [projectRoleName(database, 'admin'), projectRoleName(database, 'read_only')].map((role) => quoteLiteral(quoteIdent(role)));
  return `do $stats$ begin if to_regprocedure('extensions.dash_statements()') is not null then execute format('grant execute on function extensions.dash_statements() to %s, %s', ${roles.join(', ')}); end if; end $stats$`;
}

/**
 * Scopes statement statistics to the project's database in a database bootstrapped before they were
 * (its roles read the server-wide view until then). Idempotent; the platform runs it at start for every
 * project, as the server's superuser: provisioning work, never a request's.
 */
export async function scopeStatementStatistics(serverUrl: string): Promise<void> {
  const client = standaloneClient(serverUrl);
  await client.connect();
  try {
    // One simple query: its statements run as one transaction.
    await client.query(`${STAT_STATEMENTS_SQL}; ${statementsGrant(databaseOf(serverUrl))}`);
  } finally {
    await client.end();
  }
}

/** Grants of the read-only and storage roles, once the schemas exist. */
function projectGrantStatements(database: string): string[] {
  const admin = quoteIdent(projectRoleName(database, 'admin'));
  const readOnly = quoteIdent(projectRoleName(database, 'read_only'));
  const storage = quoteIdent(projectRoleName(database, 'storage'));
  const auth = quoteIdent(projectRoleName(database, 'auth'));
  return [
    `
do $read$
declare
  s record;
begin
  for s in select nspname from pg_namespace
           where nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and nspname not like 'pg\\_%'
  loop
    execute format('grant usage on schema %I to %s', s.nspname, ${quoteLiteral(readOnly)});
    execute format('grant select on all tables in schema %I to %s', s.nspname, ${quoteLiteral(readOnly)});
    execute format('grant select on all sequences in schema %I to %s', s.nspname, ${quoteLiteral(readOnly)});
  end loop;
end
$read$`,
    `alter default privileges for role ${admin} grant usage on schemas to ${readOnly}`,
    `alter default privileges for role ${admin} grant select on tables to ${readOnly}`,
    `alter default privileges for role ${admin} grant select on sequences to ${readOnly}`,
    // The storage role owns the storage tables, as the service that writes them (it drops a deleted
    // bucket's policies); the admin, a member of it, still manages their policies.
    `do $ext$ begin if exists (select 1 from pg_namespace where nspname = 'extensions') then execute format('grant usage on schema extensions to %s', ${quoteLiteral(admin)}); end if; end $ext$`,
    `do $reset$ begin if to_regprocedure('extensions.dash_reset_statements()') is not null then execute format('grant execute on function extensions.dash_reset_statements() to %s', ${quoteLiteral(admin)}); end if; end $reset$`,
    statementsGrant(database),
    `grant usage on schema storage to ${storage}`,
    `alter table storage.buckets owner to ${storage}`,
    `alter table storage.objects owner to ${storage}`,
    `grant execute on all functions in schema storage to ${storage}`,
    `grant usage on schema auth to ${auth}`,
    `grant select, insert, update, delete on all tables in schema auth to ${auth}`,
    `grant usage, select on all sequences in schema auth to ${auth}`,
    `alter default privileges for role ${admin} in schema auth grant select, insert, update, delete on tables to ${auth}`,
    `alter default privileges for role ${admin} in schema auth grant usage, select on sequences to ${auth}`,
  ];
}

/**
 * Bootstraps a project database, given its URL as the server's superuser: the cluster roles, the
 * project's five roles with `passwords` (new ones when none are given; give the stored ones again to
 * keep them), the `auth` helpers that read the request's JWT claims and the `storage` schema with
 * row-level security on. Idempotent, in one transaction. Returns each role's connection string.
 */
export async function bootstrapProjectDatabase(
  serverUrl: string,
  passwords: ProjectRolePasswords = generateRolePasswords(),
): Promise<ProjectConnections> {
  const database = databaseOf(serverUrl);
  if (Buffer.byteLength(database) > MAX_PROJECT_DATABASE_BYTES) {
    throw new Error(`A project database name is at most ${MAX_PROJECT_DATABASE_BYTES} bytes: ${database}`);
  }
  const client = standaloneClient(serverUrl);
  await client.connect();
  try {
    const version = Number((await client.query<{ v: string }>(`select current_setting('server_version_num') as v`)).rows[0]!.v);
    await inTransaction(client, async () => {
      await client.query(CLUSTER_ROLES_SQL);
      // Roles are cluster-wide: two bootstraps of one project must not both create them.
      await client.query('select pg_advisory_xact_lock(hashtext($1))', [`dash-project-roles:${database}`]);
      const { rows } = await client.query<{ rolname: string }>('select rolname from pg_roles where rolname = any($1)', [
        PROJECT_ROLES.map((role) => projectRoleName(database, role)),
      ]);
      for (const statement of projectRoleStatements(database, passwords, version, new Set(rows.map((r) => r.rolname)))) {
        await client.query(statement);
      }
      await client.query(STAT_STATEMENTS_SQL);
      await client.query(PGCRYPTO_SQL);
      await client.query(SCHEMA_RELOAD_SQL);
      await client.query(`set local role ${quoteIdent(projectRoleName(database, 'admin'))}`);
      await client.query(PROJECT_OBJECTS_SQL);
      await client.query('reset role');
      for (const statement of projectGrantStatements(database)) await client.query(statement);
    });
  } finally {
    await client.end();
  }
  return {
    admin: projectRoleUrl(serverUrl, 'admin', passwords.admin),
    read_only: projectRoleUrl(serverUrl, 'read_only', passwords.read_only),
    storage: projectRoleUrl(serverUrl, 'storage', passwords.storage),
    api: projectRoleUrl(serverUrl, 'api', passwords.api),
    auth: projectRoleUrl(serverUrl, 'auth', passwords.auth),
  };
}

/** Drops a project database and its roles (the cluster-wide roles stay). */
export async function dropProjectDatabase(serverUrl: string, database: string): Promise<void> {
  const client = standaloneClient(serverUrl);
  await client.connect();
  try {
    await client.query(`drop database if exists ${quoteIdent(database)} with (force)`);
    for (const role of PROJECT_ROLES) {
      const name = projectRoleName(database, role);
      // Grants to the role in other databases (none are made) would keep it; drop owned clears this one's.
      await client.query(`drop role if exists ${quoteIdent(name)}`);
    }
  } finally {
    await client.end();
  }
}
