import type { Kysely } from 'kysely';
import { DEFAULT_UPLOAD_LIMIT_BYTES } from '@dash/contracts';
import type { Database, ProjectPlan } from './schema';

export interface ProjectStorage {
  plan: ProjectPlan;
  fileSizeLimit: number;
}

/** The project's plan and upload limit (the default one until it is first changed). */
export async function getProjectStorage(db: Kysely<Database>, projectId: number): Promise<ProjectStorage> {
  const row = await db
    .selectFrom('projects as p')
    .leftJoin('project_storage_config as c', 'c.project_id', 'p.id')
    .select(['p.plan', 'c.file_size_limit'])
    .where('p.id', '=', projectId)
    .executeTakeFirstOrThrow();
  return { plan: row.plan, fileSizeLimit: row.file_size_limit ?? DEFAULT_UPLOAD_LIMIT_BYTES };
}

export async function setUploadLimit(db: Kysely<Database>, projectId: number, fileSizeLimit: number): Promise<void> {
  await db
    .insertInto('project_storage_config')
    .values({ project_id: projectId, file_size_limit: fileSizeLimit })
    .onConflict((oc) => oc.column('project_id').doUpdateSet((eb) => ({ file_size_limit: fileSizeLimit, updated_at: eb.fn('now') })))
    .execute();
}
