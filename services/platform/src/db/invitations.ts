import type { Kysely } from 'kysely';
import type { Invitation, OrgRole } from '@dash/contracts';
import type { Database } from './schema';

function invitationsQuery(db: Kysely<Database>) {
  return db
    .selectFrom('invitations as i')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select(['i.id', 'i.org_id', 'i.email', 'i.role', 'i.created_at', 'i.expires_at', 'u.email as invited_by_email']);
}

type InvitationRow = Awaited<ReturnType<ReturnType<typeof invitationsQuery>['executeTakeFirstOrThrow']>>;

const toInvitation = (row: InvitationRow, now = new Date()): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  invited_by_email: row.invited_by_email,
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at.toISOString(),
  expired: row.expires_at <= now,
});

export async function listInvitations(db: Kysely<Database>, orgId: number): Promise<Invitation[]> {
  const rows = await invitationsQuery(db).where('i.org_id', '=', orgId).orderBy('i.created_at', 'desc').orderBy('i.email').execute();
  return rows.map((row) => toInvitation(row));
}

/** A new invitation in place of any earlier one of the same email (whose link stops working). */
export async function replaceInvitation(
  trx: Kysely<Database>,
  input: { orgId: number; email: string; role: OrgRole; tokenHash: string; invitedBy: string; expiresAt: Date },
): Promise<Invitation> {
  await trx.deleteFrom('invitations').where('org_id', '=', input.orgId).where('email', '=', input.email).execute();
  const { id } = await trx
    .insertInto('invitations')
    .values({
      org_id: input.orgId,
      email: input.email,
      role: input.role,
      token_hash: input.tokenHash,
      invited_by: input.invitedBy,
      expires_at: input.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return toInvitation(await invitationsQuery(trx).where('i.id', '=', id).executeTakeFirstOrThrow());
}

export async function findInvitation(db: Kysely<Database>, orgId: number, id: string): Promise<Invitation | undefined> {
  const row = await invitationsQuery(db).where('i.org_id', '=', orgId).where('i.id', '=', id).executeTakeFirst();
  return row && toInvitation(row);
}

/** The unexpired invitation of a token hash, with its organization; `lock` holds it for the transaction. */
export async function findValidInvitation(db: Kysely<Database>, tokenHash: string, options: { lock?: boolean } = {}) {
  let query = db
    .selectFrom('invitations as i')
    .innerJoin('organizations as o', 'o.id', 'i.org_id')
    .select(['i.id', 'i.org_id', 'i.email', 'i.role', 'i.expires_at', 'o.slug as organization_slug', 'o.name as organization_name'])
    .where('i.token_hash', '=', tokenHash)
    .where('i.expires_at', '>', new Date());
  if (options.lock) query = query.forUpdate('i');
  return query.executeTakeFirst();
}

export async function deleteInvitationById(trx: Kysely<Database>, id: string): Promise<void> {
  await trx.deleteFrom('invitations').where('id', '=', id).execute();
}
