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

/**
 * The project's stored (encrypted) JWT secret, storing `candidate` first when it has none. One statement:
 * of two requests racing here, the second waits for the first's row lock and then keeps its secret.
 */
export async function storedJwtSecret(db: Kysely<Database>, projectId: number, candidate: () => string): Promise<string> {
  const current = await db.selectFrom('projects').select('jwt_secret_encrypted').where('id', '=', projectId).executeTakeFirstOrThrow();
  if (current.jwt_secret_encrypted) return current.jwt_secret_encrypted;
  const stored = await db
    .updateTable('projects')
    .set((eb) => ({ jwt_secret_encrypted: eb.fn.coalesce('jwt_secret_encrypted', eb.val(candidate())) }))
    .where('id', '=', projectId)
    .returning('jwt_secret_encrypted')
    .executeTakeFirstOrThrow();
  return stored.jwt_secret_encrypted!;
}
