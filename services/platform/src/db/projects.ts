import type { Kysely } from 'kysely';
import type { OrgRole, Project } from '@dash/contracts';
import type { Database, ProjectRow } from './schema';
import { isUserId } from './users';

function projectsOfUser(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('projects as p')
    .innerJoin('organizations as o', 'o.id', 'p.org_id')
    .innerJoin('members as m', 'm.org_id', 'p.org_id')
    .select([
      'p.id',
      'p.ref',
      'p.name',
      'p.status',
      'p.inserted_at',
      'o.slug as organization_slug',
      'o.name as organization_name',
      'm.role',
    ])
    .where('m.user_id', '=', userId);
}

type ProjectQueryRow = Awaited<ReturnType<ReturnType<typeof projectsOfUser>['executeTakeFirstOrThrow']>>;

const toProject = (row: ProjectQueryRow): Project => ({
  id: row.id,
  ref: row.ref,
  name: row.name,
  status: row.status,
  organization_slug: row.organization_slug,
  organization_name: row.organization_name,
  role: row.role,
  inserted_at: row.inserted_at.toISOString(),
});

export async function listProjectsOf(db: Kysely<Database>, userId: string): Promise<Project[]> {
  if (!isUserId(userId)) return [];
  const rows = await projectsOfUser(db, userId).orderBy('p.inserted_at').orderBy('p.id').execute();
  return rows.map(toProject);
}

/** The project as its member sees it, or undefined when it does not exist or the user is not a member. */
export async function findProjectOf(db: Kysely<Database>, userId: string, ref: string): Promise<Project | undefined> {
  if (!isUserId(userId)) return undefined;
  const row = await projectsOfUser(db, userId).where('p.ref', '=', ref).executeTakeFirst();
  return row && toProject(row);
}

/** Project ref → the user's role, for every project of every organization the user belongs to. */
export async function projectRolesOf(db: Kysely<Database>, userId: string): Promise<Record<string, OrgRole>> {
  if (!isUserId(userId)) return {};
  const rows = await db
    .selectFrom('projects as p')
    .innerJoin('members as m', 'm.org_id', 'p.org_id')
    .select(['p.ref', 'm.role'])
    .where('m.user_id', '=', userId)
    .execute();
  const roles: Record<string, OrgRole> = {};
  for (const row of rows) roles[row.ref] = row.role;
  return roles;
}

export async function findProjectByRef(db: Kysely<Database>, ref: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('ref', '=', ref).executeTakeFirst();
}
