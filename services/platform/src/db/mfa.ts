import type { Kysely, Selectable } from 'kysely';
import type { AssuranceLevel, MfaFactor, SessionAssurance } from '@dash/contracts';
import type { Database, MfaFactorsTable } from './schema';

export type MfaFactorRow = Selectable<MfaFactorsTable>;

export const toMfaFactor = (row: MfaFactorRow): MfaFactor => ({
  id: row.id,
  factor_type: row.factor_type,
  friendly_name: row.friendly_name,
  status: row.status,
  created_at: row.created_at.toISOString(),
});

export async function hasVerifiedFactor(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('mfa_factors')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '=', 'verified')
    .executeTakeFirst();
  return row !== undefined;
}

/** A session's level and the level its user needs (aal2 once they have a verified factor). */
export async function assuranceOf(db: Kysely<Database>, userId: string, aal: AssuranceLevel): Promise<SessionAssurance> {
  return { aal, nextLevel: (await hasVerifiedFactor(db, userId)) ? 'aal2' : aal };
}

export async function listFactors(db: Kysely<Database>, userId: string): Promise<MfaFactorRow[]> {
  return db.selectFrom('mfa_factors').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

export async function findFactor(db: Kysely<Database>, userId: string, id: string): Promise<MfaFactorRow | undefined> {
  return db.selectFrom('mfa_factors').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function findVerifiedFactor(db: Kysely<Database>, userId: string): Promise<MfaFactorRow | undefined> {
  return db
    .selectFrom('mfa_factors')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'verified')
    .executeTakeFirst();
}

/** Replaces the user's unverified factors with a new one. */
export async function insertUnverifiedFactor(
  db: Kysely<Database>,
  factor: { id: string; userId: string; friendlyName: string; secretEncrypted: string },
): Promise<MfaFactorRow> {
  await db.deleteFrom('mfa_factors').where('user_id', '=', factor.userId).where('status', '=', 'unverified').execute();
  return db
    .insertInto('mfa_factors')
    .values({
      id: factor.id,
      user_id: factor.userId,
      friendly_name: factor.friendlyName,
      secret_encrypted: factor.secretEncrypted,
      last_used_step: null,
      verified_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Records that a code of `step` was accepted, only if no code of that step or a later one was: false
 * means the code was already used (a replay), or lost a race with the same code.
 */
export async function claimTotpStep(db: Kysely<Database>, factorId: string, step: number): Promise<boolean> {
  const row = await db
    .updateTable('mfa_factors')
    .set({ last_used_step: step })
    .where('id', '=', factorId)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks an unverified factor verified; undefined when it no longer is unverified. */
export async function markFactorVerified(db: Kysely<Database>, factorId: string): Promise<MfaFactorRow | undefined> {
  return db
    .updateTable('mfa_factors')
    .set({ status: 'verified', verified_at: new Date() })
    .where('id', '=', factorId)
    .where('status', '=', 'unverified')
    .returningAll()
    .executeTakeFirst();
}

export async function deleteFactor(db: Kysely<Database>, userId: string, id: string): Promise<MfaFactorRow | undefined> {
  return db.deleteFrom('mfa_factors').where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirst();
}

/** Replaces every recovery code of the factor with these (hashes). */
export async function replaceRecoveryCodes(db: Kysely<Database>, factorId: string, codeHashes: string[]): Promise<void> {
  await db.deleteFrom('mfa_recovery_codes').where('factor_id', '=', factorId).execute();
  await db
    .insertInto('mfa_recovery_codes')
    .values(codeHashes.map((code_hash) => ({ factor_id: factorId, code_hash, used_at: null })))
    .execute();
}

/** Uses up one recovery code; false when it is unknown or was used before. */
export async function consumeRecoveryCode(db: Kysely<Database>, factorId: string, codeHash: string): Promise<boolean> {
  const row = await db
    .updateTable('mfa_recovery_codes')
    .set({ used_at: new Date() })
    .where('factor_id', '=', factorId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .returning('code_hash')
    .executeTakeFirst();
  return row !== undefined;
}

export async function countUnusedRecoveryCodes(db: Kysely<Database>, factorId: string): Promise<number> {
  const row = await db
    .selectFrom('mfa_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('factor_id', '=', factorId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
