import { sql, type Kysely } from 'kysely';
import type { SavedLogQuery } from '@dash/contracts';
import type { ContentRow, Database } from './schema';

/*
 * Saved logs explorer queries in the content store (type `log_sql`, migration 0015): personal items,
 * their text in `sql`. Every query names the type and the owner, so nobody sees another member's.
 */

const ownQueries = (db: Kysely<Database>, projectId: number, ownerId: string) =>
  db.selectFrom('content').selectAll().where('project_id', '=', projectId).where('owner_id', '=', ownerId).where('type', '=', 'log_sql');

const toSaved = (row: ContentRow): SavedLogQuery => ({
  id: row.id,
  name: row.name,
  sql: row.sql,
  inserted_at: row.inserted_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export async function listSavedLogQueries(db: Kysely<Database>, projectId: number, ownerId: string): Promise<SavedLogQuery[]> {
  const rows = await ownQueries(db, projectId, ownerId).orderBy('updated_at', 'desc').orderBy('id').execute();
  return rows.map(toSaved);
}

export async function findSavedLogQuery(db: Kysely<Database>, projectId: number, ownerId: string, id: string): Promise<SavedLogQuery | undefined> {
  const row = await ownQueries(db, projectId, ownerId).where('id', '=', id).executeTakeFirst();
  return row && toSaved(row);
}

/** Inserts the query; false (nothing written) when the id exists already, as any content. */
export async function insertSavedLogQuery(db: Kysely<Database>, q: { id: string; projectId: number; ownerId: string; name: string; sql: string }): Promise<boolean> {
  const inserted = await db
    .insertInto('content')
    .values({ id: q.id, project_id: q.projectId, owner_id: q.ownerId, type: 'log_sql', name: q.name, description: null, visibility: 'user', sql: q.sql })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Renames or rewrites the caller's query; false when they have none of that id. */
export async function updateSavedLogQuery(
  db: Kysely<Database>,
  projectId: number,
  ownerId: string,
  id: string,
  changes: { name?: string; sql?: string },
): Promise<boolean> {
  const result = await db
    .updateTable('content')
    .set({ ...changes, version: sql<number>`version + 1`, updated_at: sql<Date>`now()` })
    .where('project_id', '=', projectId)
    .where('owner_id', '=', ownerId)
    .where('type', '=', 'log_sql')
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteSavedLogQuery(db: Kysely<Database>, projectId: number, ownerId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('content')
    .where('project_id', '=', projectId)
    .where('owner_id', '=', ownerId)
    .where('type', '=', 'log_sql')
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
