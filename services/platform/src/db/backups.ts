import { sql, type Kysely, type Selectable } from 'kysely';
import type { BackupKind, DatabaseBackup } from '@dash/contracts';
import { isUniqueViolation } from '@dash/service-kit';
import type { BackupsTable, Database } from './schema';

type BackupRow = Selectable<BackupsTable>;

const COLUMNS = ['id', 'project_id', 'kind', 'status', 'created_at', 'completed_at', 'size_bytes', 'error', 'recovery_target'] as const;

const toBackup = (row: Pick<BackupRow, (typeof COLUMNS)[number]>): DatabaseBackup => ({
  id: row.id,
  created_at: row.created_at.toISOString(),
  completed_at: row.completed_at?.toISOString() ?? null,
  kind: row.kind,
  status: row.status,
  size_bytes: row.size_bytes,
  error: row.error,
  recovery_target: row.recovery_target?.toISOString() ?? null,
});

export async function listBackups(db: Kysely<Database>, projectId: number): Promise<DatabaseBackup[]> {
  const rows = await db.selectFrom('backups').select(COLUMNS).where('project_id', '=', projectId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toBackup);
}

export async function findBackup(db: Kysely<Database>, projectId: number, id: number) {
  return db.selectFrom('backups').select(COLUMNS).where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

/**
 * A new RUNNING backup; undefined when the project already has an on-demand one running (or, for a
 * scheduled one, when the day's exists): the unique indexes decide, so two platform processes never race.
 */
export async function insertBackup(
  db: Kysely<Database>,
  input: { projectId: number; kind: BackupKind; scheduledFor?: string; createdBy?: string | null; recoveryTarget?: Date },
): Promise<DatabaseBackup | undefined> {
  try {
    const row = await db
      .insertInto('backups')
      .values({
        project_id: input.projectId,
        kind: input.kind,
        scheduled_for: input.scheduledFor ?? null,
        created_by: input.createdBy ?? null,
        recovery_target: input.recoveryTarget ?? null,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return toBackup(row);
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

/** Stores the file and marks the backup COMPLETED, together. */
export async function completeBackup(db: Kysely<Database>, id: number, content: Buffer): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('backup_files').values({ backup_id: id, content }).execute();
    await trx.updateTable('backups').set({ status: 'COMPLETED', size_bytes: content.length, completed_at: new Date() }).where('id', '=', id).execute();
  });
}

export async function failBackup(db: Kysely<Database>, id: number, error: string): Promise<void> {
  await db.updateTable('backups').set({ status: 'FAILED', error, completed_at: new Date() }).where('id', '=', id).where('status', '=', 'RUNNING').execute();
}

/** Backups left RUNNING by a process that stopped: nothing will finish them. */
export async function failInterruptedBackups(db: Kysely<Database>, error: string): Promise<number> {
  const result = await db.updateTable('backups').set({ status: 'FAILED', error, completed_at: new Date() }).where('status', '=', 'RUNNING').executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function backupContent(db: Kysely<Database>, id: number): Promise<Buffer | undefined> {
  const row = await db.selectFrom('backup_files').select('content').where('backup_id', '=', id).executeTakeFirst();
  return row?.content;
}

/** Why backup `id` failed; undefined when it did not (or is gone). */
export async function backupFailure(db: Kysely<Database>, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('backups').select('error').where('id', '=', id).where('status', '=', 'FAILED').executeTakeFirst();
  return row?.error ?? undefined;
}

/** Active projects without a scheduled backup for `day` (YYYY-MM-DD, UTC). */
export async function projectsDueForBackup(db: Kysely<Database>, day: string): Promise<Array<{ id: number; ref: string }>> {
  return db
    .selectFrom('projects as p')
    .select(['p.id', 'p.ref'])
    .where('p.status', '=', 'ACTIVE_HEALTHY')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('backups as b').select('b.id').whereRef('b.project_id', '=', 'p.id').where('b.scheduled_for', '=', sql<Date>`${day}::date`))),
    )
    .orderBy('p.id')
    .execute();
}

/**
 * Deletes the scheduled backups of days before `day` (YYYY-MM-DD), except those a project coming up is
 * restored from.
 */
export async function deleteScheduledBackupsBefore(db: Kysely<Database>, day: string): Promise<number> {
  const result = await db
    .deleteFrom('backups')
    .where('kind', '=', 'scheduled')
    .where('scheduled_for', '<', sql<Date>`${day}::date`)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('projects as p').select('p.id').whereRef('p.restore_from', '=', 'backups.id').where('p.status', '=', 'COMING_UP'))),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
