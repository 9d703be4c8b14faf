import { sql, type SqlScript } from './script';

/** One task each: a table with its policies, a helper, a trigger, a catalog report. */
export const SQL_TEMPLATES: readonly SqlScript[] = [
  {
    id: 'rls-own-rows',
    title: 'Table with row-level security',
    description: 'A notes table where each signed-in user reads and writes only their own rows.',
    sql: sql`
      -- Each note belongs to the user who wrote it; auth.uid() is the signed-in user's id.
      create table if not exists public.notes (
        id bigint generated always as identity primary key,
        user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
        body text not null check (length(body) <= 10000),
        created_at timestamptz not null default now()
      );
      create index if not exists notes_user_id_idx on public.notes (user_id);

      alter table public.notes enable row level security;

      drop policy if exists "Users read their own notes" on public.notes;
      create policy "Users read their own notes" on public.notes
        for select to authenticated
        using ((select auth.uid()) = user_id);

      drop policy if exists "Users add notes as themselves" on public.notes;
      create policy "Users add notes as themselves" on public.notes
        for insert to authenticated
        with check ((select auth.uid()) = user_id);

      drop policy if exists "Users edit their own notes" on public.notes;
      create policy "Users edit their own notes" on public.notes
        for update to authenticated
        using ((select auth.uid()) = user_id)
        with check ((select auth.uid()) = user_id);

      drop policy if exists "Users delete their own notes" on public.notes;
      create policy "Users delete their own notes" on public.notes
        for delete to authenticated
        using ((select auth.uid()) = user_id);
    `,
  },
  {
    id: 'profiles-on-signup',
    title: 'User profiles created on sign-up',
    description: 'A public profiles table and a trigger on auth.users that gives every new user a profile.',
    sql: sql`
      create table if not exists public.profiles (
        id uuid primary key references auth.users (id) on delete cascade,
        username text unique check (username ~ '^[a-z0-9_.-]{3,32}$'),
        display_name text,
        avatar_url text,
        created_at timestamptz not null default now()
      );

      alter table public.profiles enable row level security;

      drop policy if exists "Profiles are public" on public.profiles;
      create policy "Profiles are public" on public.profiles
        for select to anon, authenticated
        using (true);

      drop policy if exists "Users edit their own profile" on public.profiles;
      create policy "Users edit their own profile" on public.profiles
        for update to authenticated
        using ((select auth.uid()) = id)
        with check ((select auth.uid()) = id);

      -- Runs as its owner (security definer), so a sign-up may write a profile whatever the caller's role.
      -- An empty search_path makes every name in the body explicit.
      create or replace function public.create_profile_for_new_user()
      returns trigger
      language plpgsql
      security definer
      set search_path = ''
      as $$
      declare
        base text := lower(regexp_replace(split_part(coalesce(new.email, ''), '@', 1), '[^a-z0-9_.-]', '', 'gi'));
      begin
        insert into public.profiles (id, username, display_name)
        values (
          new.id,
          case when length(base) >= 3 then left(base, 24) || '_' || left(replace(new.id::text, '-', ''), 6) end,
          nullif(split_part(coalesce(new.email, ''), '@', 1), '')
        )
        on conflict (id) do nothing;
        return new;
      end;
      $$;

      create or replace trigger on_auth_user_created
        after insert on auth.users
        for each row execute function public.create_profile_for_new_user();
    `,
  },
  {
    id: 'jwt-claim-helpers',
    title: 'Helper functions for JWT claims',
    description: 'Small SQL functions that read the caller\'s JWT (app roles, anonymous users, tenant) for use in policies.',
    sql: sql`
      -- auth.jwt() returns the request's claims as jsonb; these helpers name the parts policies ask about.

      -- True when the caller's app_metadata.roles array contains the given role.
      create or replace function public.jwt_has_app_role(wanted text)
      returns boolean
      language sql
      stable
      as $$
        select coalesce(auth.jwt() -> 'app_metadata' -> 'roles' ? wanted, false)
      $$;

      -- True for users who signed in anonymously (the is_anonymous claim).
      create or replace function public.jwt_is_anonymous()
      returns boolean
      language sql
      stable
      as $$
        select coalesce((auth.jwt() ->> 'is_anonymous')::boolean, false)
      $$;

      -- The caller's tenant from app_metadata.tenant_id, or null.
      create or replace function public.jwt_tenant_id()
      returns uuid
      language sql
      stable
      as $$
        select nullif(auth.jwt() -> 'app_metadata' ->> 'tenant_id', '')::uuid
      $$;

      grant execute on function public.jwt_has_app_role(text), public.jwt_is_anonymous(), public.jwt_tenant_id()
        to anon, authenticated, service_role;

      -- What they say for this session (no claims when run from the editor as the admin role):
      select auth.uid() as user_id,
             auth.role() as role,
             public.jwt_has_app_role('admin') as is_app_admin,
             public.jwt_is_anonymous() as is_anonymous,
             public.jwt_tenant_id() as tenant_id;
    `,
  },
  {
    id: 'storage-user-folders',
    title: 'Private folders per user in a bucket',
    description: 'A private bucket where each signed-in user may only list, upload, change and delete files under a folder named after their id.',
    sql: sql`
      insert into storage.buckets (id, name, public)
      values ('user-files', 'user-files', false)
      on conflict (id) do nothing;

      -- storage.foldername(name) splits an object's path into its folders: '<user id>/notes/a.txt' -> {<user id>, notes}.
      drop policy if exists "user-files: read own folder" on storage.objects;
      create policy "user-files: read own folder" on storage.objects
        for select to authenticated
        using (bucket_id = 'user-files' and (storage.foldername(name))[1] = (select auth.uid())::text);

      drop policy if exists "user-files: upload to own folder" on storage.objects;
      create policy "user-files: upload to own folder" on storage.objects
        for insert to authenticated
        with check (bucket_id = 'user-files' and (storage.foldername(name))[1] = (select auth.uid())::text);

      drop policy if exists "user-files: update own folder" on storage.objects;
      create policy "user-files: update own folder" on storage.objects
        for update to authenticated
        using (bucket_id = 'user-files' and (storage.foldername(name))[1] = (select auth.uid())::text)
        with check (bucket_id = 'user-files' and (storage.foldername(name))[1] = (select auth.uid())::text);

      drop policy if exists "user-files: delete from own folder" on storage.objects;
      create policy "user-files: delete from own folder" on storage.objects
        for delete to authenticated
        using (bucket_id = 'user-files' and (storage.foldername(name))[1] = (select auth.uid())::text);
    `,
  },
  {
    id: 'storage-public-avatars',
    title: 'Public avatars bucket',
    description: 'A public bucket for images up to 1 MB that anyone can read and where users manage only the files they own.',
    sql: sql`
      insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
      values ('avatars', 'avatars', true, 1048576, array['image/png', 'image/jpeg', 'image/webp'])
      on conflict (id) do update
        set public = excluded.public,
            file_size_limit = excluded.file_size_limit,
            allowed_mime_types = excluded.allowed_mime_types;

      drop policy if exists "avatars: anyone can read" on storage.objects;
      create policy "avatars: anyone can read" on storage.objects
        for select to anon, authenticated
        using (bucket_id = 'avatars');

      -- The owner column is set to the uploader's id by the storage service.
      drop policy if exists "avatars: users upload their own" on storage.objects;
      create policy "avatars: users upload their own" on storage.objects
        for insert to authenticated
        with check (bucket_id = 'avatars' and owner = (select auth.uid()));

      drop policy if exists "avatars: users replace their own" on storage.objects;
      create policy "avatars: users replace their own" on storage.objects
        for update to authenticated
        using (bucket_id = 'avatars' and owner = (select auth.uid()))
        with check (bucket_id = 'avatars' and owner = (select auth.uid()));

      drop policy if exists "avatars: users delete their own" on storage.objects;
      create policy "avatars: users delete their own" on storage.objects
        for delete to authenticated
        using (bucket_id = 'avatars' and owner = (select auth.uid()));
    `,
  },
  {
    id: 'full-text-search',
    title: 'Full-text search',
    description: 'An articles table with a weighted tsvector column kept by Postgres, a GIN index and a ranked search query.',
    sql: sql`
      create table if not exists public.articles (
        id bigint generated always as identity primary key,
        title text not null,
        body text not null default '',
        -- Title words weigh more than body words; Postgres keeps the column current on every write.
        search tsvector generated always as (
          setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
          setweight(to_tsvector('english', coalesce(body, '')), 'B')
        ) stored,
        created_at timestamptz not null default now()
      );
      create index if not exists articles_search_idx on public.articles using gin (search);

      insert into public.articles (title, body)
      select v.title, v.body
      from (values
        ('Indexing JSON documents', 'A GIN index makes containment queries on jsonb columns fast.'),
        ('Choosing primary keys', 'Identity columns and UUIDs both work; pick one and index foreign keys.'),
        ('Searching text in Postgres', 'Full-text search turns documents into lexemes and ranks the matches.')
      ) as v(title, body)
      where not exists (select 1 from public.articles);

      -- websearch_to_tsquery accepts what people type: quoted phrases, or, -excluded words.
      select id, title, ts_rank(search, query) as rank
      from public.articles, websearch_to_tsquery('english', 'index -primary') as query
      where search @@ query
      order by rank desc
      limit 20;
    `,
  },
  {
    id: 'updated-at-trigger',
    title: 'Keep updated_at current',
    description: 'A trigger function that stamps updated_at on every update, attached to an example table.',
    sql: sql`
      create or replace function public.stamp_updated_at()
      returns trigger
      language plpgsql
      as $$
      begin
        new.updated_at := now();
        return new;
      end;
      $$;

      create table if not exists public.documents (
        id bigint generated always as identity primary key,
        title text not null,
        content text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );

      -- Attach the same function to any table that has an updated_at column.
      create or replace trigger documents_stamp_updated_at
        before update on public.documents
        for each row execute function public.stamp_updated_at();
    `,
  },
  {
    id: 'daily-signups',
    title: 'Daily counts with empty days',
    description: 'Sign-ups per day for the last 30 days, with zero for days without any (generate_series and a left join).',
    sql: sql`
      -- Every day of the range comes from generate_series, so days without sign-ups show 0.
      select day::date as day,
             count(u.id) as signups
      from generate_series(current_date - 29, current_date, interval '1 day') as day
      left join auth.users as u
        on u.created_at >= day and u.created_at < day + interval '1 day'
      group by day
      order by day;
    `,
  },
  {
    id: 'soft-delete',
    title: 'Soft delete',
    description: 'DELETE on a contacts table marks rows with deleted_at instead of removing them; a view and a policy hide them.',
    sql: sql`
      create table if not exists public.contacts (
        id bigint generated always as identity primary key,
        owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
        name text not null,
        email text,
        deleted_at timestamptz
      );
      -- Most queries read live rows only: a partial index serves them.
      create index if not exists contacts_live_owner_idx on public.contacts (owner_id) where deleted_at is null;

      -- A BEFORE DELETE trigger that stamps the row and cancels the delete (returning null). It runs as
      -- its owner: the caller's delete already passed the policies, and the stamped row no longer passes
      -- the select policy, which Postgres would otherwise check on the updated row.
      create or replace function public.contacts_soft_delete()
      returns trigger
      language plpgsql
      security definer
      set search_path = ''
      as $$
      begin
        update public.contacts set deleted_at = now() where id = old.id and deleted_at is null;
        return null;
      end;
      $$;

      create or replace trigger contacts_soft_delete
        before delete on public.contacts
        for each row execute function public.contacts_soft_delete();

      create or replace view public.live_contacts with (security_invoker = on) as
        select id, owner_id, name, email from public.contacts where deleted_at is null;

      alter table public.contacts enable row level security;

      drop policy if exists "Owners see their live contacts" on public.contacts;
      create policy "Owners see their live contacts" on public.contacts
        for select to authenticated
        using ((select auth.uid()) = owner_id and deleted_at is null);

      drop policy if exists "Owners add contacts" on public.contacts;
      create policy "Owners add contacts" on public.contacts
        for insert to authenticated
        with check ((select auth.uid()) = owner_id);

      drop policy if exists "Owners change their contacts" on public.contacts;
      create policy "Owners change their contacts" on public.contacts
        for update to authenticated
        using ((select auth.uid()) = owner_id)
        with check ((select auth.uid()) = owner_id);

      drop policy if exists "Owners delete their contacts" on public.contacts;
      create policy "Owners delete their contacts" on public.contacts
        for delete to authenticated
        using ((select auth.uid()) = owner_id);
    `,
  },
  {
    id: 'security-invoker-view',
    title: 'View that respects row-level security',
    description: 'A monthly summary view with security_invoker, so each user sees totals of their own expenses only.',
    sql: sql`
      create table if not exists public.expenses (
        id bigint generated always as identity primary key,
        user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
        amount numeric(12, 2) not null check (amount > 0),
        category text not null default 'other',
        spent_on date not null default current_date
      );
      create index if not exists expenses_user_spent_idx on public.expenses (user_id, spent_on);

      alter table public.expenses enable row level security;

      drop policy if exists "Users manage their own expenses" on public.expenses;
      create policy "Users manage their own expenses" on public.expenses
        for all to authenticated
        using ((select auth.uid()) = user_id)
        with check ((select auth.uid()) = user_id);

      -- Without security_invoker a view runs with its owner's rights and would show every user's rows.
      create or replace view public.monthly_expenses with (security_invoker = on) as
        select user_id,
               date_trunc('month', spent_on)::date as month,
               category,
               sum(amount) as total,
               count(*) as entries
        from public.expenses
        group by user_id, date_trunc('month', spent_on), category;

      grant select on public.monthly_expenses to authenticated;
    `,
  },
  {
    id: 'jsonb-gin-index',
    title: 'JSON column with a GIN index',
    description: 'An events table with a jsonb payload, a GIN index for containment queries and a query that uses it.',
    sql: sql`
      create table if not exists public.app_events (
        id bigint generated always as identity primary key,
        kind text not null,
        payload jsonb not null default '{}' check (jsonb_typeof(payload) = 'object'),
        created_at timestamptz not null default now()
      );
      -- jsonb_path_ops is smaller and faster than the default operator class, for @> queries.
      create index if not exists app_events_payload_idx on public.app_events using gin (payload jsonb_path_ops);

      insert into public.app_events (kind, payload)
      select v.kind, v.payload::jsonb
      from (values
        ('checkout', '{"plan": "pro", "seats": 5, "coupon": null}'),
        ('checkout', '{"plan": "free", "seats": 1}'),
        ('invite', '{"plan": "pro", "email": "ada@example.com"}')
      ) as v(kind, payload)
      where not exists (select 1 from public.app_events);

      -- Rows whose payload contains {"plan": "pro"}, with a field read out as text and one as a number.
      select id, kind, payload ->> 'plan' as plan, (payload ->> 'seats')::int as seats
      from public.app_events
      where payload @> '{"plan": "pro"}'
      order by id;
    `,
  },
  {
    id: 'enum-status',
    title: 'Enum type for a status column',
    description: 'A shipment status enum (created only if missing), a table that uses it and a count per status.',
    sql: sql`
      -- CREATE TYPE has no IF NOT EXISTS: create it unless it is there.
      do $$
      begin
        if not exists (
          select 1 from pg_type t join pg_namespace n on n.oid = t.typnamespace
          where n.nspname = 'public' and t.typname = 'shipment_status'
        ) then
          create type public.shipment_status as enum ('pending', 'packed', 'shipped', 'delivered');
        end if;
      end;
      $$;

      -- Values can be added later (not removed); a new value is usable once this transaction commits.
      alter type public.shipment_status add value if not exists 'returned' after 'delivered';

      create table if not exists public.shipments (
        id bigint generated always as identity primary key,
        tracking_code text unique,
        status public.shipment_status not null default 'pending',
        updated_at timestamptz not null default now()
      );

      -- Enum values sort in their declared order, not alphabetically.
      select s.status, count(sh.id) as shipments
      from unnest(enum_range(null::public.shipment_status)) as s(status)
      left join public.shipments sh on sh.status = s.status
      group by s.status
      order by s.status;
    `,
  },
  {
    id: 'materialized-view-refresh',
    title: 'Materialized view with refresh',
    description: 'Daily page views stored in a materialized view with a unique index, refreshed without blocking readers.',
    sql: sql`
      create table if not exists public.page_views (
        id bigint generated always as identity primary key,
        path text not null,
        viewed_at timestamptz not null default now()
      );
      create index if not exists page_views_viewed_at_idx on public.page_views (viewed_at);

      create materialized view if not exists public.daily_page_views as
        select date_trunc('day', viewed_at)::date as day, path, count(*) as views
        from public.page_views
        group by 1, 2;

      -- REFRESH ... CONCURRENTLY needs a unique index covering every row.
      create unique index if not exists daily_page_views_day_path_idx on public.daily_page_views (day, path);

      -- Call this after loading data, or on a schedule.
      create or replace function public.refresh_daily_page_views()
      returns void
      language plpgsql
      security definer
      set search_path = ''
      as $$
      begin
        refresh materialized view concurrently public.daily_page_views;
      end;
      $$;
      revoke execute on function public.refresh_daily_page_views() from public, anon, authenticated;

      select public.refresh_daily_page_views();
      select day, path, views from public.daily_page_views order by day desc, views desc limit 50;
    `,
  },
  {
    id: 'slow-queries',
    title: 'Long-running and blocked queries',
    description: 'Queries on this database running for more than 5 seconds, and the sessions that block others.',
    sql: sql`
      -- Everything not idle for more than 5 seconds, longest first.
      select pid,
             usename as role,
             state,
             now() - query_start as running_for,
             wait_event_type,
             wait_event,
             left(query, 200) as query
      from pg_stat_activity
      where datname = current_database()
        and pid <> pg_backend_pid()
        and state <> 'idle'
        and now() - query_start > interval '5 seconds'
      order by running_for desc;

      -- Sessions waiting on a lock, with the pids holding it.
      select blocked.pid as blocked_pid,
             left(blocked.query, 120) as blocked_query,
             pg_blocking_pids(blocked.pid) as blocked_by,
             now() - blocked.query_start as waiting_for
      from pg_stat_activity blocked
      where blocked.datname = current_database()
        and cardinality(pg_blocking_pids(blocked.pid)) > 0
      order by waiting_for desc;
    `,
  },
  {
    id: 'table-sizes',
    title: 'Largest tables',
    description: 'The 25 largest tables with their data, index and total sizes and estimated row counts, from the catalog.',
    sql: sql`
      select n.nspname as schema,
             c.relname as table,
             pg_size_pretty(pg_total_relation_size(c.oid)) as total_size,
             pg_size_pretty(pg_relation_size(c.oid)) as table_size,
             pg_size_pretty(pg_indexes_size(c.oid)) as index_size,
             -- The planner's estimate: -1 until the table is first analyzed.
             greatest(c.reltuples, 0)::bigint as estimated_rows
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'm')
        and n.nspname not in ('pg_catalog', 'information_schema')
        and n.nspname not like 'pg\_%'
      order by pg_total_relation_size(c.oid) desc
      limit 25;
    `,
  },
  {
    id: 'index-usage',
    title: 'Index usage',
    description: 'How often each index is scanned, unused indexes that only cost writes, and tables read mostly by sequential scans.',
    sql: sql`
      -- Indexes by scans since statistics were last reset; unique indexes enforce rules even when unused.
      select s.schemaname as schema,
             s.relname as table,
             s.indexrelname as index,
             s.idx_scan as scans,
             pg_size_pretty(pg_relation_size(s.indexrelid)) as size,
             i.indisunique as is_unique,
             (s.idx_scan = 0 and not i.indisunique and not i.indisprimary) as unused
      from pg_stat_user_indexes s
      join pg_index i on i.indexrelid = s.indexrelid
      order by s.idx_scan asc, pg_relation_size(s.indexrelid) desc;

      -- Tables read mostly by sequential scans may be missing an index.
      select schemaname as schema,
             relname as table,
             seq_scan,
             coalesce(idx_scan, 0) as idx_scan,
             n_live_tup as live_rows,
             round(100.0 * seq_scan / nullif(seq_scan + coalesce(idx_scan, 0), 0), 1) as seq_scan_percent
      from pg_stat_user_tables
      order by seq_scan desc
      limit 25;
    `,
  },
  {
    id: 'rls-audit',
    title: 'Tables without row-level security',
    description: 'Every table of the exposed schemas with its RLS state and policy count, unprotected ones first.',
    sql: sql`
      -- A table in public without RLS is readable and writable by anyone holding the anon key.
      select n.nspname as schema,
             c.relname as table,
             c.relrowsecurity as rls_enabled,
             c.relforcerowsecurity as rls_forced,
             count(p.polname) as policies,
             case
               when not c.relrowsecurity then 'open to every role with table privileges'
               when count(p.polname) = 0 then 'locked: RLS on but no policy'
               else 'protected'
             end as status
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      left join pg_policy p on p.polrelid = c.oid
      where c.relkind in ('r', 'p')
        and n.nspname in ('public', 'storage')
      group by n.nspname, c.relname, c.relrowsecurity, c.relforcerowsecurity
      order by c.relrowsecurity, count(p.polname), n.nspname, c.relname;
    `,
  },
  {
    id: 'team-access',
    title: 'Team-based access',
    description: 'Teams, memberships and projects that members of a team can read and its admins can change, with a helper that avoids recursive policies.',
    sql: sql`
      create table if not exists public.teams (
        id uuid primary key default gen_random_uuid(),
        name text not null,
        created_by uuid not null default auth.uid() references auth.users (id),
        created_at timestamptz not null default now()
      );

      create table if not exists public.team_members (
        team_id uuid not null references public.teams (id) on delete cascade,
        user_id uuid not null references auth.users (id) on delete cascade,
        role text not null default 'member' check (role in ('member', 'admin')),
        primary key (team_id, user_id)
      );
      create index if not exists team_members_user_idx on public.team_members (user_id);

      create table if not exists public.team_projects (
        id bigint generated always as identity primary key,
        team_id uuid not null references public.teams (id) on delete cascade,
        name text not null
      );
      create index if not exists team_projects_team_idx on public.team_projects (team_id);

      -- Policies on team_members that read team_members would recurse; a security definer function in a
      -- schema the API does not expose reads it without policies.
      create schema if not exists private;
      grant usage on schema private to authenticated;

      create or replace function private.team_role(team uuid)
      returns text
      language sql
      stable
      security definer
      set search_path = ''
      as $$
        select m.role from public.team_members m where m.team_id = team and m.user_id = auth.uid()
      $$;
      grant execute on function private.team_role(uuid) to authenticated;

      -- The creator of a team becomes its first admin.
      create or replace function private.add_team_creator()
      returns trigger
      language plpgsql
      security definer
      set search_path = ''
      as $$
      begin
        insert into public.team_members (team_id, user_id, role)
        values (new.id, new.created_by, 'admin')
        on conflict do nothing;
        return new;
      end;
      $$;

      create or replace trigger teams_add_creator
        after insert on public.teams
        for each row execute function private.add_team_creator();

      alter table public.teams enable row level security;
      alter table public.team_members enable row level security;
      alter table public.team_projects enable row level security;

      -- The creator sees a new team before the trigger has made them a member (insert ... returning).
      drop policy if exists "Members see their teams" on public.teams;
      create policy "Members see their teams" on public.teams
        for select to authenticated using (created_by = (select auth.uid()) or private.team_role(id) is not null);
      drop policy if exists "Users create teams" on public.teams;
      create policy "Users create teams" on public.teams
        for insert to authenticated with check (created_by = (select auth.uid()));

      drop policy if exists "Members see their team's members" on public.team_members;
      create policy "Members see their team's members" on public.team_members
        for select to authenticated using (private.team_role(team_id) is not null);
      drop policy if exists "Admins manage members" on public.team_members;
      create policy "Admins manage members" on public.team_members
        for all to authenticated
        using (private.team_role(team_id) = 'admin')
        with check (private.team_role(team_id) = 'admin');

      drop policy if exists "Members read projects" on public.team_projects;
      create policy "Members read projects" on public.team_projects
        for select to authenticated using (private.team_role(team_id) is not null);
      drop policy if exists "Admins write projects" on public.team_projects;
      create policy "Admins write projects" on public.team_projects
        for all to authenticated
        using (private.team_role(team_id) = 'admin')
        with check (private.team_role(team_id) = 'admin');
    `,
  },
];
