import type { Kysely } from 'kysely';
import type { OrgRole, Organization, User } from '@dash/contracts';
import type { Database, UserRow } from './schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Identities carry the user id as `sub`; anything that is not a uuid matches no user (and no SQL error). */
export const isUserId = (value: string): boolean => UUID.test(value);

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export const toUser = (row: Pick<UserRow, 'id' | 'email' | 'name'>): User => ({ id: row.id, email: row.email, name: row.name });

export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
}

export async function findUserById(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
  if (!isUserId(id)) return undefined;
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(
  db: Kysely<Database>,
  user: { email: string; name: string; passwordHash: string },
): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({ email: normalizeEmail(user.email), name: user.name, password_hash: user.passwordHash })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function countUsers(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listOrganizationsOf(db: Kysely<Database>, userId: string): Promise<Organization[]> {
  if (!isUserId(userId)) return [];
  const rows = await db
    .selectFrom('organizations as o')
    .innerJoin('members as m', 'm.org_id', 'o.id')
    .select(['o.id', 'o.slug', 'o.name', 'm.role'])
    .where('m.user_id', '=', userId)
    .orderBy('o.name')
    .orderBy('o.id')
    .execute();
  return rows.map((r) => ({ id: r.id, slug: r.slug, name: r.name, role: r.role }));
}

export async function upsertOrganization(db: Kysely<Database>, slug: string, name: string): Promise<number> {
  const row = await db
    .insertInto('organizations')
    .values({ slug, name })
    .onConflict((oc) => oc.column('slug').doUpdateSet({ name }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function addMember(db: Kysely<Database>, orgId: number, userId: string, role: OrgRole): Promise<void> {
  await db
    .insertInto('members')
    .values({ org_id: orgId, user_id: userId, role })
    .onConflict((oc) => oc.columns(['org_id', 'user_id']).doUpdateSet({ role }))
    .execute();
}
