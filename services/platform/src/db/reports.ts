import { sql, type Kysely, type Transaction } from 'kysely';
import type { CustomReport, ReportContent } from '@dash/contracts';
import type { ContentRow, Database } from './schema';

/*
 * Custom reports in the content store (type `report`, migration 0014): project-wide items whose blocks
 * live in the `report` JSON column. Every query names the type, so snippets and reports never mix.
 */

const reportsOf = (db: Kysely<Database>, projectId: number) =>
  db.selectFrom('content').selectAll().where('project_id', '=', projectId).where('type', '=', 'report');

const toReport = (row: ContentRow): CustomReport => ({
  id: row.id,
  type: 'report',
  project_id: row.project_id,
  name: row.name,
  description: row.description,
  visibility: 'project',
  owner_id: row.owner_id,
  content: row.report as ReportContent,
  inserted_at: row.inserted_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** Newest change first; the id breaks ties so the order is stable. */
export async function listReports(db: Kysely<Database>, projectId: number): Promise<CustomReport[]> {
  const rows = await reportsOf(db, projectId).orderBy('updated_at', 'desc').orderBy('id').execute();
  return rows.map(toReport);
}

export async function findReport(db: Kysely<Database>, projectId: number, id: string): Promise<CustomReport | undefined> {
  const row = await reportsOf(db, projectId).where('id', '=', id).executeTakeFirst();
  return row && toReport(row);
}

export interface NewReport {
  id: string;
  projectId: number;
  ownerId: string;
  name: string;
  description: string | null;
  content: ReportContent;
}

/** Inserts the report; false (nothing written) when the id exists already, as any type of content. */
export async function insertReport(trx: Transaction<Database>, report: NewReport): Promise<boolean> {
  const inserted = await trx
    .insertInto('content')
    .values({
      id: report.id,
      project_id: report.projectId,
      owner_id: report.ownerId,
      type: 'report',
      name: report.name,
      description: report.description,
      visibility: 'project',
      sql: '',
      report: JSON.stringify(report.content),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export interface ReportChanges {
  name?: string;
  description?: string | null;
  content?: ReportContent;
}

/** Applies the changes given; false when the project has no report of that id. */
export async function updateReport(db: Kysely<Database>, projectId: number, id: string, changes: ReportChanges): Promise<boolean> {
  const result = await db
    .updateTable('content')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.content !== undefined ? { report: JSON.stringify(changes.content) } : {}),
      version: sql<number>`version + 1`,
      updated_at: sql<Date>`now()`,
    })
    .where('project_id', '=', projectId)
    .where('type', '=', 'report')
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes the project's reports among `ids`; returns the ids it deleted. */
export async function deleteReports(db: Kysely<Database>, projectId: number, ids: readonly string[]): Promise<string[]> {
  const rows = await db
    .deleteFrom('content')
    .where('project_id', '=', projectId)
    .where('type', '=', 'report')
    .where('id', 'in', ids)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
