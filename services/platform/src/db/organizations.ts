import type { Kysely } from 'kysely';
import type { OrganizationDetail, OrganizationMember, OrgRole } from '@dash/contracts';
import type { Database } from './schema';
import { isUserId } from './users';

/** The organization as its member sees it (with the member's role), or undefined for a non-member. */
export async function findOrganizationOf(db: Kysely<Database>, userId: string, slug: string): Promise<OrganizationDetail | undefined> {
  if (!isUserId(userId)) return undefined;
  const row = await db
    .selectFrom('organizations as o')
    .innerJoin('members as m', 'm.org_id', 'o.id')
    .select(['o.id', 'o.slug', 'o.name', 'o.billing_via_partner', 'o.created_at', 'm.role'])
    .where('o.slug', '=', slug)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
  return row && { ...row, created_at: row.created_at.toISOString() };
}

export async function renameOrganization(db: Kysely<Database>, orgId: number, name: string): Promise<void> {
  await db.updateTable('organizations').set({ name }).where('id', '=', orgId).execute();
}

function membersQuery(db: Kysely<Database>, orgId: number) {
  return db
    .selectFrom('members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.email', 'u.name', 'm.role', 'm.created_at'])
    .where('m.org_id', '=', orgId);
}

type MemberRow = Awaited<ReturnType<ReturnType<typeof membersQuery>['executeTakeFirstOrThrow']>>;
const toMember = (row: MemberRow): OrganizationMember => ({
  user_id: row.user_id,
  email: row.email,
  name: row.name,
  role: row.role,
  joined_at: row.created_at.toISOString(),
});

export async function listMembers(db: Kysely<Database>, orgId: number): Promise<OrganizationMember[]> {
  const rows = await membersQuery(db, orgId).orderBy('m.created_at').orderBy('u.email').execute();
  return rows.map(toMember);
}

export async function findMember(db: Kysely<Database>, orgId: number, userId: string): Promise<OrganizationMember | undefined> {
  if (!isUserId(userId)) return undefined;
  const row = await membersQuery(db, orgId).where('m.user_id', '=', userId).executeTakeFirst();
  return row && toMember(row);
}

export async function countOwners(db: Kysely<Database>, orgId: number): Promise<number> {
  const row = await db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_id', '=', orgId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setMemberRole(trx: Kysely<Database>, orgId: number, userId: string, role: OrgRole): Promise<OrganizationMember> {
  await trx.updateTable('members').set({ role }).where('org_id', '=', orgId).where('user_id', '=', userId).execute();
  return toMember(await membersQuery(trx, orgId).where('m.user_id', '=', userId).executeTakeFirstOrThrow());
}

export async function deleteMember(trx: Kysely<Database>, orgId: number, userId: string): Promise<void> {
  await trx.deleteFrom('members').where('org_id', '=', orgId).where('user_id', '=', userId).execute();
}

/**
 * Serialises the membership changes of one organization: each takes the organization's row lock first,
 * then reads roles, so two owners demoting each other at once cannot both pass the last-owner check.
 */
export async function lockOrganization(trx: Kysely<Database>, orgId: number): Promise<void> {
  await trx.selectFrom('organizations').select('id').where('id', '=', orgId).forUpdate().execute();
}
