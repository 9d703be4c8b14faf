import type { Kysely } from 'kysely';
import { sha256Hex } from '../crypto';
import type { Database, UserRow } from './schema';

export async function insertSession(db: Kysely<Database>, token: string, userId: string, expiresAt: Date): Promise<void> {
  await db.insertInto('sessions').values({ token_hash: sha256Hex(token), user_id: userId, expires_at: expiresAt }).execute();
}

/** The user of an unexpired session, by the cookie token. */
export async function findSessionUser(db: Kysely<Database>, token: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .where('s.token_hash', '=', sha256Hex(token))
    .where('s.expires_at', '>', new Date())
    .executeTakeFirst();
}

export async function deleteSession(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', sha256Hex(token)).execute();
}

/** Drops a user's expired sessions (called at sign-in, so the table does not grow without bound). */
export async function deleteExpiredSessions(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<=', new Date()).execute();
}
