import { sql, type Kysely } from 'kysely';
import type { Database } from './schema';

/** The project's secrets that are generated on first use, each stored encrypted in its own column. */
export type GeneratedSecretColumn = 'jwt_secret_encrypted' | 'vault_key_encrypted';

/**
 * The project's stored (encrypted) secret of `column`, storing `candidate` first when it has none. One
 * statement: of two requests racing here, the second waits for the first's row lock and then keeps its secret.
 */
export async function storedProjectSecret(
  db: Kysely<Database>,
  projectId: number,
  column: GeneratedSecretColumn,
  candidate: () => string,
): Promise<string> {
  const current = await db.selectFrom('projects').select(column).where('id', '=', projectId).executeTakeFirstOrThrow();
  const existing = (current as Record<GeneratedSecretColumn, string | null>)[column];
  if (existing) return existing;
  const stored = await db
    .updateTable('projects')
    .set((eb) => ({ [column]: eb.fn.coalesce(column, eb.val(candidate())) }))
    .where('id', '=', projectId)
    .returning(column)
    .executeTakeFirstOrThrow();
  return (stored as Record<GeneratedSecretColumn, string | null>)[column]!;
}

/** Replaces the project's JWT secret (already encrypted) and returns when, by the database's clock. */
export async function replaceJwtSecret(db: Kysely<Database>, projectId: number, encrypted: string): Promise<Date> {
  const row = await db
    .updateTable('projects')
    .set({ jwt_secret_encrypted: encrypted, jwt_secret_rotated_at: sql<Date>`now()` })
    .where('id', '=', projectId)
    .returning('jwt_secret_rotated_at')
    .executeTakeFirstOrThrow();
  return row.jwt_secret_rotated_at!;
}

/** Stores the project roles' new passwords (already encrypted) after a reset of the admin role's; returns when. */
export async function replaceRolePasswords(db: Kysely<Database>, projectId: number, encrypted: string): Promise<Date> {
  const row = await db
    .updateTable('projects')
    .set({ role_passwords_encrypted: encrypted, database_password_reset_at: sql<Date>`now()` })
    .where('id', '=', projectId)
    .returning('database_password_reset_at')
    .executeTakeFirstOrThrow();
  return row.database_password_reset_at!;
}
