import { sql, type Kysely, type Selectable } from 'kysely';
import type { AccessToken } from '@dash/contracts';
import { sha256Hex } from '../crypto';
import type { AccessTokensTable, Database, UserRow } from './schema';

type AccessTokenRow = Selectable<AccessTokensTable>;

const toAccessToken = (row: AccessTokenRow): AccessToken => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at?.toISOString() ?? null,
  last_used_at: row.last_used_at?.toISOString() ?? null,
});

/** The user's tokens, newest first (expired ones too, so the list explains why a script stopped working). */
export async function listAccessTokens(db: Kysely<Database>, userId: string): Promise<AccessToken[]> {
  const rows = await db
    .selectFrom('access_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toAccessToken);
}

export async function insertAccessToken(
  db: Kysely<Database>,
  token: { userId: string; name: string; secret: string; prefix: string; expiresAt: Date | null },
): Promise<AccessToken> {
  const row = await db
    .insertInto('access_tokens')
    .values({
      user_id: token.userId,
      name: token.name,
      token_hash: sha256Hex(token.secret),
      prefix: token.prefix,
      expires_at: token.expiresAt,
      last_used_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toAccessToken(row);
}

export async function deleteAccessToken(db: Kysely<Database>, userId: string, id: string): Promise<AccessToken | undefined> {
  const row = await db.deleteFrom('access_tokens').where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirst();
  return row && toAccessToken(row);
}

/**
 * The user of an unexpired token, by its secret, noting when it was used. The note is written at most
 * once a minute per token, so a busy script does not turn every request into a write.
 */
export async function findAccessTokenUser(db: Kysely<Database>, secret: string): Promise<UserRow | undefined> {
  const tokenHash = sha256Hex(secret);
  const user = await db
    .selectFrom('access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .selectAll('u')
    .where('t.token_hash', '=', tokenHash)
    .where((eb) => eb.or([eb('t.expires_at', 'is', null), eb('t.expires_at', '>', new Date())]))
    .executeTakeFirst();
  if (!user) return undefined;
  await db
    .updateTable('access_tokens')
    .set({ last_used_at: sql<Date>`now()` })
    .where('token_hash', '=', tokenHash)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', sql<Date>`now() - interval '1 minute'`)]))
    .execute();
  return user;
}
