import pg from 'pg';

/**
 * Bootstraps a new project database: the standard roles, the `auth` helpers that read the request's
 * JWT claims, and the `storage` schema with row-level security on. Idempotent, in one transaction.
 * Roles are cluster-wide, so creating one that another project (or a concurrent bootstrap) made is fine.
 */
export const PROJECT_BOOTSTRAP_SQL = `
do $roles$
declare
  spec record;
begin
  for spec in select * from (values
    ('anon', 'nologin noinherit'),
    ('authenticated', 'nologin noinherit'),
    ('service_role', 'nologin noinherit bypassrls'),
    ('authenticator', 'login noinherit'),
    ('dashboard_user', 'nologin createrole createdb')
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

create schema if not exists auth;
create table if not exists auth.users (
  id uuid primary key default gen_random_uuid(),
  email text unique,
  is_anonymous boolean not null default false,
  created_at timestamptz not null default now()
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

export async function bootstrapProjectDatabase(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(PROJECT_BOOTSTRAP_SQL);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}
