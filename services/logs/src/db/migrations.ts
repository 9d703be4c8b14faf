import { sql, type Kysely, type Migration } from 'kysely';
import { migrateSchema } from '@dash/service-kit';

/** The explorer's view of each log source (frozen: a source added later gets its view in a migration of its own). */
const EXPLORER_SOURCE_VIEWS = [
  ['edge_logs', 'edge'],
  ['postgres_logs', 'postgres'],
  ['postgrest_logs', 'postgrest'],
  ['pooler_logs', 'pooler'],
  ['auth_logs', 'auth'],
  ['storage_logs', 'storage'],
  ['realtime_logs', 'realtime'],
] as const;

/** A source's explorer view as 0022 made it: a security barrier filtered to the settings (0023 moved those to a row policy). */
const constantRangeSourceView = (view: string, source: string) => sql`
  create or replace view ${sql.id('log_tables', view)} with (security_barrier) as
  select id, "timestamp", event_message, metadata
  from logs.events
  where source = ${sql.lit(source)}
    and project_ref = logs.explorer_setting('dash.project_ref')
    and "timestamp" >= logs.explorer_time('dash.range_from')
    and "timestamp" < logs.explorer_time('dash.range_to')`;

/** The logs schema's migrations, applied in name order by kysely's Migrator (history kept in `logs`). */
export const migrations: Record<string, Migration> = {
  '0001_events': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table logs.events (
          id uuid not null default gen_random_uuid(),
          "timestamp" timestamptz not null,
          source text not null,
          project_ref text,
          event_message text not null default '',
          metadata jsonb not null default '{}'::jsonb,
          primary key (id, "timestamp")
        ) partition by range ("timestamp")`.execute(db);
      await sql`create index events_project_source_time on logs.events (project_ref, source, "timestamp" desc)`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table logs.events`.execute(db);
    },
  },
  // Sources and retention (H1). A BRIN index on the time: tiny, and events arrive in time order.
  '0002_events_time_brin': {
    async up(db: Kysely<unknown>) {
      await sql`create index events_time_brin on logs.events using brin ("timestamp")`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop index logs.events_time_brin`.execute(db);
    },
  },
  // A project's retention (days of events it reads; the sweeper keeps the longest any project has).
  '0003_project_settings': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table logs.project_settings (
          project_ref text primary key,
          retention_days integer not null check (retention_days between 1 and 90),
          updated_at timestamptz not null default now()
        )`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table logs.project_settings`.execute(db);
    },
  },
  // How far the Postgres log tailer has read each jsonlog file (committed with the events it read).
  '0004_postgres_log_offsets': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table logs.postgres_log_offsets (
          file text primary key,
          "offset" bigint not null check ("offset" >= 0),
          updated_at timestamptz not null default now()
        )`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table logs.postgres_log_offsets`.execute(db);
    },
  },
  // The explorer (H2): one security-barrier view per log source in `log_tables`, showing only the project
  // and time range the explorer's transaction sets (read once per query as InitPlans, not once per row;
  // they still drive the index and partition pruning), and a NOLOGIN role that can read those views and
  // nothing else. The service's own role may `set role` to it. Roles are cluster-wide, so creating and
  // granting it tolerates another database of the cluster doing the same at the same moment.
  '0010_explorer': {
    async up(db: Kysely<unknown>) {
      await sql`
        do $$
        begin
          if not exists (select from pg_roles where rolname = 'dash_logs_reader') then
            create role dash_logs_reader nologin noinherit;
          end if;
        exception when duplicate_object or unique_violation then null;
        end $$`.execute(db);
      await sql`
        do $$
        begin
          if not pg_has_role(current_user, 'dash_logs_reader', 'member') then
            execute format('grant dash_logs_reader to %I', current_user);
          end if;
        exception when unique_violation then null;
        end $$`.execute(db);
      await sql`create schema log_tables`.execute(db);
      await sql`revoke all on schema log_tables from public`.execute(db);
      await sql`revoke all on schema logs from public`.execute(db);
      await sql`grant usage on schema log_tables to dash_logs_reader`.execute(db);
      for (const [view, source] of EXPLORER_SOURCE_VIEWS) {
        await sql`
          create view ${sql.id('log_tables', view)} with (security_barrier) as
          select id, "timestamp", event_message, metadata
          from logs.events
          where source = ${sql.lit(source)}
            and project_ref = (select current_setting('dash.project_ref'))
            and "timestamp" >= (select current_setting('dash.range_from')::timestamptz)
            and "timestamp" < (select current_setting('dash.range_to')::timestamptz)`.execute(db);
        await sql`revoke all on ${sql.id('log_tables', view)} from public`.execute(db);
        await sql`grant select on ${sql.id('log_tables', view)} to dash_logs_reader`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      await sql`drop schema log_tables cascade`.execute(db);
    },
  },
  // The explorer's recent queries: the last few per user and project, a query run again moving to the top.
  '0011_explorer_recent': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table logs.explorer_recent (
          id uuid primary key default gen_random_uuid(),
          user_id text not null,
          project_ref text not null,
          sql text not null,
          sql_hash text generated always as (md5(sql)) stored,
          ran_at timestamptz not null default now(),
          unique (user_id, project_ref, sql_hash)
        )`.execute(db);
      await sql`create index explorer_recent_user on logs.explorer_recent (user_id, project_ref, ran_at desc)`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table logs.explorer_recent`.execute(db);
    },
  },
  // Event collections (H3): collections and warehouse access tokens per project (a token's secret is
  // kept only as its sha256), and the collections' events, partitioned by day like logs.events.
  '0020_warehouse': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table logs.collections (
          id bigint generated always as identity primary key,
          token uuid not null unique default gen_random_uuid(),
          project_ref text not null,
          name text not null,
          created_at timestamptz not null default now(),
          unique (project_ref, name)
        )`.execute(db);
      await sql`
        create table logs.warehouse_access_tokens (
          id uuid primary key default gen_random_uuid(),
          project_ref text not null,
          description text not null,
          token_hash bytea not null unique,
          hint text not null,
          created_by text not null,
          created_at timestamptz not null default now()
        )`.execute(db);
      await sql`create index warehouse_access_tokens_project on logs.warehouse_access_tokens (project_ref, created_at)`.execute(db);
      // No primary key: a unique index on a random uuid would cost every insert a random btree write.
      await sql`
        create table logs.collection_events (
          id uuid not null default gen_random_uuid(),
          collection_id bigint not null,
          "timestamp" timestamptz not null,
          event_message text not null default '',
          metadata jsonb not null default '{}'::jsonb
        ) partition by range ("timestamp")`.execute(db);
      // Events arrive roughly in time order, so a BRIN index prunes time ranges at a fraction of a btree's
      // cost; the btree serves one collection's page (and its deletion).
      await sql`create index collection_events_time on logs.collection_events using brin ("timestamp")`.execute(db);
      await sql`create index collection_events_collection_time on logs.collection_events (collection_id, "timestamp")`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table logs.collection_events, logs.warehouse_access_tokens, logs.collections`.execute(db);
    },
  },
  // The explorer's table of collection events (after H2's 0010 made log_tables and dash_logs_reader):
  // `collection` is the collection's token, which a rename does not change.
  '0021_collection_events_view': {
    async up(db: Kysely<unknown>) {
      await sql`
        create view log_tables.collection_events with (security_barrier) as
        select e.id, c.token::text as collection, e."timestamp", e.event_message, e.metadata
        from logs.collection_events e
        join logs.collections c on c.id = e.collection_id
        where c.project_ref = current_setting('dash.project_ref')
          and e."timestamp" >= current_setting('dash.range_from')::timestamptz
          and e."timestamp" < current_setting('dash.range_to')::timestamptz`.execute(db);
      await sql`revoke all on log_tables.collection_events from public`.execute(db);
      await sql`grant select on log_tables.collection_events to dash_logs_reader`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop view log_tables.collection_events`.execute(db);
    },
  },
  // The explorer's views read the project and range as planning constants. Read through InitPlans (0010)
  // the planner could not see them: it guessed a few hundred rows for an hour of a busy project and
  // chose a serial index scan, 1.6x slower than the same SQL with literals, which Postgres runs in
  // parallel. `logs.explorer_setting` and `logs.explorer_time` are declared immutable so that planning
  // folds them to the values set in the explorer's transaction (the time one returns a timestamptz, so
  // no text-to-time cast is left to run per row), which is true for as long as a plan of it lives: explorer statements
  // are planned once, in that transaction, and never prepared or cached (the guard lets through one
  // SELECT, in a read-only transaction, so no function or prepared statement can keep a plan). Partition
  // pruning then happens at planning too. The views stay security barriers.
  '0022_explorer_constant_range': {
    async up(db: Kysely<unknown>) {
      await sql`
        create function logs.explorer_setting(name text) returns text
        language sql immutable parallel safe
        as $$ select pg_catalog.current_setting(name) $$`.execute(db);
      await sql`
        create function logs.explorer_time(name text) returns timestamptz
        language sql immutable parallel safe
        as $$ select pg_catalog.current_setting(name)::timestamptz $$`.execute(db);
      for (const [view, source] of EXPLORER_SOURCE_VIEWS) {
        await constantRangeSourceView(view, source).execute(db);
      }
      await sql`
        create or replace view log_tables.collection_events with (security_barrier) as
        select e.id, c.token::text as collection, e."timestamp", e.event_message, e.metadata
        from logs.collection_events e
        join logs.collections c on c.id = e.collection_id
        where c.project_ref = logs.explorer_setting('dash.project_ref')
          and e."timestamp" >= logs.explorer_time('dash.range_from')
          and e."timestamp" < logs.explorer_time('dash.range_to')`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      for (const [view, source] of EXPLORER_SOURCE_VIEWS) {
        await sql`
          create or replace view ${sql.id('log_tables', view)} with (security_barrier) as
          select id, "timestamp", event_message, metadata
          from logs.events
          where source = ${sql.lit(source)}
            and project_ref = (select current_setting('dash.project_ref'))
            and "timestamp" >= (select current_setting('dash.range_from')::timestamptz)
            and "timestamp" < (select current_setting('dash.range_to')::timestamptz)`.execute(db);
      }
      await sql`
        create or replace view log_tables.collection_events with (security_barrier) as
        select e.id, c.token::text as collection, e."timestamp", e.event_message, e.metadata
        from logs.collection_events e
        join logs.collections c on c.id = e.collection_id
        where c.project_ref = current_setting('dash.project_ref')
          and e."timestamp" >= current_setting('dash.range_from')::timestamptz
          and e."timestamp" < current_setting('dash.range_to')::timestamptz`.execute(db);
      await sql`drop function logs.explorer_setting(text), logs.explorer_time(text)`.execute(db);
    },
  },
  // The project and range move from the source views into a row-level policy on logs.events for the
  // reader. A security-barrier view keeps the user's filter out of its scan (Postgres runs it on the
  // view's rows, above a Subquery Scan), which cost the explorer about 15% over the same SQL on the
  // table. Row-level security gives the same guarantee inside the scan: the policy's conditions run
  // before any function of the user's that is not leakproof, so such a function never sees another
  // project's or another time's event. The views become plain (security_invoker) views that pick a
  // source; which sources a member may read is the route's access rule, as before. The reader gets the
  // explorer's columns of logs.events and `source`, never `project_ref` (so not `select *`), and nothing
  // on the partitions or the other tables of `logs`. Without the settings the policy raises, as the
  // views did.
  '0023_explorer_row_policy': {
    async up(db: Kysely<unknown>) {
      await sql`alter table logs.events enable row level security`.execute(db);
      await sql`
        create policy explorer_reader on logs.events for select to dash_logs_reader
        using (project_ref = logs.explorer_setting('dash.project_ref')
          and "timestamp" >= logs.explorer_time('dash.range_from')
          and "timestamp" < logs.explorer_time('dash.range_to'))`.execute(db);
      await sql`grant usage on schema logs to dash_logs_reader`.execute(db);
      await sql`grant select (id, "timestamp", source, event_message, metadata) on logs.events to dash_logs_reader`.execute(db);
      for (const [view, source] of EXPLORER_SOURCE_VIEWS) {
        await sql`drop view ${sql.id('log_tables', view)}`.execute(db);
        await sql`
          create view ${sql.id('log_tables', view)} with (security_invoker) as
          select id, "timestamp", event_message, metadata from logs.events where source = ${sql.lit(source)}`.execute(db);
        await sql`revoke all on ${sql.id('log_tables', view)} from public`.execute(db);
        await sql`grant select on ${sql.id('log_tables', view)} to dash_logs_reader`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      for (const [view, source] of EXPLORER_SOURCE_VIEWS) {
        await sql`drop view ${sql.id('log_tables', view)}`.execute(db);
        await constantRangeSourceView(view, source).execute(db);
        await sql`revoke all on ${sql.id('log_tables', view)} from public`.execute(db);
        await sql`grant select on ${sql.id('log_tables', view)} to dash_logs_reader`.execute(db);
      }
      await sql`revoke all on logs.events from dash_logs_reader`.execute(db);
      await sql`revoke usage on schema logs from dash_logs_reader`.execute(db);
      await sql`drop policy explorer_reader on logs.events`.execute(db);
      await sql`alter table logs.events disable row level security`.execute(db);
    },
  },
};

export async function migrateLogs(db: Kysely<unknown>): Promise<void> {
  await migrateSchema(db, 'logs', migrations);
}
