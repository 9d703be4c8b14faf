import type { Kysely } from 'kysely';
import type { AddonType } from '@dash/contracts';
import type { Database, ProjectRow } from './schema';

export async function projectRowById(db: Kysely<Database>, projectId: number): Promise<ProjectRow> {
  return db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirstOrThrow();
}

/** The project's row, locked until the transaction `trx` ends (two resets of one password never interleave). */
export async function lockProjectRow(trx: Kysely<Database>, projectId: number): Promise<ProjectRow> {
  return trx.selectFrom('projects').selectAll().where('id', '=', projectId).forUpdate().executeTakeFirstOrThrow();
}

/** The organization of a project, as the audit log keeps it. */
export async function projectOrganization(db: Kysely<Database>, projectId: number): Promise<{ id: number; slug: string }> {
  return db
    .selectFrom('projects as p')
    .innerJoin('organizations as o', 'o.id', 'p.org_id')
    .select(['o.id', 'o.slug'])
    .where('p.id', '=', projectId)
    .executeTakeFirstOrThrow();
}

export async function selectedAddons(db: Kysely<Database>, projectId: number): Promise<Array<{ type: AddonType; variant: string }>> {
  return db.selectFrom('project_addons').select(['type', 'variant']).where('project_id', '=', projectId).orderBy('type').execute();
}

/** Selects `variant` for its type, replacing the type's previous variant; returns that one, if any. */
export async function selectAddon(db: Kysely<Database>, projectId: number, type: AddonType, variant: string): Promise<string | undefined> {
  const previous = await db
    .selectFrom('project_addons')
    .select('variant')
    .where('project_id', '=', projectId)
    .where('type', '=', type)
    .forUpdate()
    .executeTakeFirst();
  await db
    .insertInto('project_addons')
    .values({ project_id: projectId, type, variant })
    .onConflict((oc) => oc.columns(['project_id', 'type']).doUpdateSet((eb) => ({ variant, selected_at: eb.fn('now') })))
    .execute();
  return previous?.variant;
}

/** Removes the selected add-on `variant`; returns its type, or undefined when it was not selected. */
export async function removeAddon(db: Kysely<Database>, projectId: number, variant: string): Promise<AddonType | undefined> {
  const removed = await db
    .deleteFrom('project_addons')
    .where('project_id', '=', projectId)
    .where('variant', '=', variant)
    .returning('type')
    .executeTakeFirst();
  return removed?.type;
}
