import type { Kysely } from 'kysely';
import type { Profile, Theme } from '@dash/contracts';
import type { Database, UserRow } from './schema';

export const toProfile = (row: Pick<UserRow, 'id' | 'email' | 'name' | 'theme'>): Profile => ({
  id: row.id,
  email: row.email,
  name: row.name,
  theme: row.theme,
});

export async function updateProfile(
  db: Kysely<Database>,
  userId: string,
  changes: { name?: string; theme?: Theme },
): Promise<Profile | undefined> {
  const row = await db.updateTable('users').set(changes).where('id', '=', userId).returningAll().executeTakeFirst();
  return row && toProfile(row);
}
