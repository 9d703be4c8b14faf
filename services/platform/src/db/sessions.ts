import type { Kysely } from 'kysely';
import { sha256Hex } from '../crypto';
import type { AssuranceLevel } from '@dash/contracts';
import type { Database, UserRow } from './schema';

export async function insertSession(db: Kysely<Database>, token: string, userId: string, expiresAt: Date): Promise<void> {
  await db.insertInto('sessions').values({ token_hash: sha256Hex(token), user_id: userId, expires_at: expiresAt }).execute();
}

/** The user of an unexpired session and the level the session has reached, by the cookie token. */
export async function findSessionUser(db: Kysely<Database>, token: string): Promise<(UserRow & { aal: AssuranceLevel }) | undefined> {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .select('s.aal')
    .where('s.token_hash', '=', sha256Hex(token))
    .where('s.expires_at', '>', new Date())
    .executeTakeFirst();
}

/** The level an unexpired session of this user has reached; undefined when the token is no such session. */
export async function sessionLevel(db: Kysely<Database>, token: string, userId: string): Promise<AssuranceLevel | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select('aal')
    .where('token_hash', '=', sha256Hex(token))
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return row?.aal;
}

/** Raises the user's session to aal2 (a second factor was verified in it); false when there is no such session. */
export async function raiseSession(db: Kysely<Database>, token: string, userId: string): Promise<boolean> {
  const row = await db
    .updateTable('sessions')
    .set({ aal: 'aal2' })
    .where('token_hash', '=', sha256Hex(token))
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date())
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteSession(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', sha256Hex(token)).execute();
}

/** Drops a user's expired sessions (called at sign-in, so the table does not grow without bound). */
export async function deleteExpiredSessions(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<=', new Date()).execute();
}
