import type { Kysely } from 'kysely';
import { AUTH_JWT_EXPIRY_DEFAULT_SECONDS, AUTH_SITE_URL_DEFAULT, type AuthConfig, type AuthConfigUpdate } from '@dash/contracts';
import type { Database } from './schema';

/** A project without a stored configuration has the defaults: anonymous sign-ins off, an hour's tokens. */
const DEFAULT_AUTH_CONFIG: AuthConfig = {
  external_anonymous_users_enabled: false,
  site_url: AUTH_SITE_URL_DEFAULT,
  jwt_expiry: AUTH_JWT_EXPIRY_DEFAULT_SECONDS,
};
const COLUMNS = ['external_anonymous_users_enabled', 'site_url', 'jwt_expiry'] as const;

export async function getAuthConfig(db: Kysely<Database>, projectId: number): Promise<AuthConfig> {
  const row = await db
    .selectFrom('project_auth_config')
    .select(COLUMNS)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row ?? DEFAULT_AUTH_CONFIG;
}

/** Changes what is given and keeps the rest, in one statement (an upsert). */
export async function updateAuthConfig(db: Kysely<Database>, projectId: number, update: AuthConfigUpdate): Promise<AuthConfig> {
  const values = { ...DEFAULT_AUTH_CONFIG, ...update };
  return db
    .insertInto('project_auth_config')
    .values({ project_id: projectId, ...values })
    .onConflict((oc) => oc.column('project_id').doUpdateSet((eb) => ({ ...update, updated_at: eb.fn('now') })))
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}
