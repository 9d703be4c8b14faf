import { sql, type Kysely, type Migration } from 'kysely';
import { migrateSchema } from '@dash/service-kit';

/** The mail schema's migrations, applied in name order by kysely's Migrator (history kept in `mail`). */
export const migrations: Record<string, Migration> = {
  '0001_messages': {
    async up(db: Kysely<unknown>) {
      // One row per caught message and project. The raw source is not kept: the parsed parts are what the
      // Emails page shows, and the catcher's size limit bounds each row.
      await sql`
        create table mail.messages (
          id integer generated always as identity primary key,
          project_ref text not null,
          sender text not null,
          recipients text[] not null,
          subject text not null,
          sent_at timestamptz,
          html text,
          body_text text,
          size_bytes integer not null check (size_bytes >= 0),
          received_at timestamptz not null default now()
        )`.execute(db);
      await sql`create index messages_project_newest on mail.messages (project_ref, id desc)`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table mail.messages`.execute(db);
    },
  },
};

export async function migrateMail(db: Kysely<unknown>): Promise<void> {
  await migrateSchema(db, 'mail', migrations);
}
