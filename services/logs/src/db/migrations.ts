import { sql, type Kysely, type Migration } from 'kysely';
import { migrateSchema } from '@dash/service-kit';

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
};

export async function migrateLogs(db: Kysely<unknown>): Promise<void> {
  await migrateSchema(db, 'logs', migrations);
}
