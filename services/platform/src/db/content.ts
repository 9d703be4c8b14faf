import { sql, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { SnippetVersion, SqlSnippet } from '@dash/contracts';
import type { ContentRow, ContentTable, ContentVisibility, Database } from './schema';

/** Shown as the saver of a version whose user has since been deleted. */
export const DELETED_USER_NAME = 'Deleted user';

function snippetsOf(db: Kysely<Database>, projectId: number) {
  return db
    .selectFrom('content as c')
    .innerJoin('users as u', 'u.id', 'c.owner_id')
    .selectAll('c')
    .select('u.name as owner_name')
    .where('c.project_id', '=', projectId)
    .where('c.type', '=', 'sql');
}

/** The snippets `userId` may see: their own personal ones and every project one. */
function visibleSnippets(db: Kysely<Database>, projectId: number, userId: string) {
  return snippetsOf(db, projectId).where((eb) => eb.or([eb('c.visibility', '=', 'project'), eb('c.owner_id', '=', userId)]));
}

const toSnippet = (row: ContentRow & { owner_name: string }): SqlSnippet => ({
  id: row.id,
  type: 'sql',
  name: row.name,
  description: row.description,
  visibility: row.visibility,
  owner_id: row.owner_id,
  owner_name: row.owner_name,
  project_id: row.project_id,
  content: { sql: row.sql, favorite: row.favorite },
  version: row.version,
  inserted_at: row.inserted_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** Newest change first; the id breaks ties so the order is stable. */
export async function listVisibleSnippets(db: Kysely<Database>, projectId: number, userId: string): Promise<SqlSnippet[]> {
  const rows = await visibleSnippets(db, projectId, userId).orderBy('c.updated_at', 'desc').orderBy('c.id').execute();
  return rows.map(toSnippet);
}

export async function findVisibleSnippet(db: Kysely<Database>, projectId: number, userId: string, id: string): Promise<SqlSnippet | undefined> {
  const row = await visibleSnippets(db, projectId, userId).where('c.id', '=', id).executeTakeFirst();
  return row && toSnippet(row);
}

/** The project's snippet, locked until the transaction ends, so saves of one snippet run one after another. */
export async function lockContent(trx: Transaction<Database>, projectId: number, id: string): Promise<ContentRow | undefined> {
  return trx.selectFrom('content').selectAll().where('project_id', '=', projectId).where('type', '=', 'sql').where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The project's snippets among `ids`, locked until the transaction ends. */
export async function lockContents(trx: Transaction<Database>, projectId: number, ids: readonly string[]): Promise<ContentRow[]> {
  return trx.selectFrom('content').selectAll().where('project_id', '=', projectId).where('type', '=', 'sql').where('id', 'in', ids).forUpdate().execute();
}

export interface NewSnippet {
  id: string;
  projectId: number;
  ownerId: string;
  name: string;
  description: string | null;
  visibility: ContentVisibility;
  sql: string;
  favorite: boolean;
}

/**
 * Inserts the snippet at version 1 with its first version row; false (and nothing written) when the id
 * exists already. A concurrent insert of the same id waits here for the other one's commit.
 */
export async function insertSnippet(trx: Transaction<Database>, snippet: NewSnippet): Promise<boolean> {
  const inserted = await trx
    .insertInto('content')
    .values({
      id: snippet.id,
      project_id: snippet.projectId,
      owner_id: snippet.ownerId,
      name: snippet.name,
      description: snippet.description,
      visibility: snippet.visibility,
      sql: snippet.sql,
      favorite: snippet.favorite,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return false;
  await insertVersion(trx, { contentId: snippet.id, version: 1, name: snippet.name, sql: snippet.sql, savedBy: snippet.ownerId });
  return true;
}

/** Who owns the id and in which project, whatever its visibility. */
export async function findContentOwnership(db: Kysely<Database>, id: string): Promise<Pick<ContentRow, 'owner_id' | 'project_id'> | undefined> {
  return db.selectFrom('content').select(['owner_id', 'project_id']).where('id', '=', id).executeTakeFirst();
}

export type ContentChanges = Pick<Updateable<ContentTable>, 'name' | 'description' | 'sql' | 'favorite' | 'version' | 'visibility'>;

export async function updateContent(trx: Transaction<Database>, id: string, changes: ContentChanges): Promise<void> {
  await trx
    .updateTable('content')
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

export interface NewVersion {
  contentId: string;
  version: number;
  name: string;
  sql: string;
  savedBy: string;
}

export async function insertVersion(trx: Transaction<Database>, v: NewVersion): Promise<void> {
  await trx
    .insertInto('content_versions')
    .values({ content_id: v.contentId, version: v.version, name: v.name, sql: v.sql, saved_by: v.savedBy })
    .execute();
}

/** Drops all but the newest `keep` version rows of the snippet (version numbers may have gaps). */
export async function pruneVersions(trx: Transaction<Database>, contentId: string, keep: number): Promise<void> {
  await trx
    .deleteFrom('content_versions')
    .where('content_id', '=', contentId)
    .where('version', 'not in', (eb) =>
      eb.selectFrom('content_versions').select('version').where('content_id', '=', contentId).orderBy('version', 'desc').limit(keep),
    )
    .execute();
}

export async function deleteContents(trx: Transaction<Database>, ids: readonly string[]): Promise<void> {
  if (ids.length) await trx.deleteFrom('content').where('id', 'in', ids).execute();
}

/** The snippet's versions, newest first, with the saver's name. */
export async function listVersions(db: Kysely<Database>, contentId: string): Promise<SnippetVersion[]> {
  const rows = await db
    .selectFrom('content_versions as v')
    .leftJoin('users as u', 'u.id', 'v.saved_by')
    .select(['v.version', 'v.name', 'v.sql', 'v.saved_at', 'u.name as saved_by_name'])
    .where('v.content_id', '=', contentId)
    .orderBy('v.version', 'desc')
    .execute();
  return rows.map((row) => ({
    version: row.version,
    name: row.name,
    sql: row.sql,
    saved_at: row.saved_at.toISOString(),
    saved_by_name: row.saved_by_name ?? DELETED_USER_NAME,
  }));
}
