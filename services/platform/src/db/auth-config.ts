import type { Kysely } from 'kysely';
import {
  AUTH_HOSTED_CONFIG_DEFAULTS,
  AUTH_HOSTED_CONFIG_KEYS,
  AUTH_JWT_EXPIRY_DEFAULT_SECONDS,
  AUTH_SITE_URL_DEFAULT,
  authHostedConfigProblem,
  type AuthConfig,
  type AuthConfigUpdate,
  type AuthHostedConfig,
} from '@dash/contracts';
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

/** The stored hosted settings over the defaults; keys no longer in the contract are dropped. */
function hostedOf(stored: Record<string, unknown> | undefined): AuthHostedConfig {
  const known = Object.entries(stored ?? {}).filter(([key]) => AUTH_HOSTED_CONFIG_KEYS.includes(key));
  return { ...AUTH_HOSTED_CONFIG_DEFAULTS, ...Object.fromEntries(known) } as AuthHostedConfig;
}

export async function getAuthHostedConfig(db: Kysely<Database>, projectId: number): Promise<AuthHostedConfig> {
  const row = await db.selectFrom('project_auth_config').select('hosted').where('project_id', '=', projectId).executeTakeFirst();
  return hostedOf(row?.hosted);
}

/**
 * Changes what is given and keeps the rest. The rules across fields (an enabled provider's client ID, an
 * enabled hook's URI) are checked on the result, under a row lock so two saves cannot each pass alone.
 * Run it in a transaction. Returns the new settings, or the broken rule's message.
 */
export async function updateAuthHostedConfig(
  trx: Kysely<Database>,
  projectId: number,
  update: Partial<AuthHostedConfig>,
): Promise<{ config: AuthHostedConfig } | { problem: string }> {
  await trx.insertInto('project_auth_config').values({ project_id: projectId }).onConflict((oc) => oc.column('project_id').doNothing()).execute();
  const row = await trx.selectFrom('project_auth_config').select('hosted').where('project_id', '=', projectId).forUpdate().executeTakeFirstOrThrow();
  const config = { ...hostedOf(row.hosted), ...update } as AuthHostedConfig;
  const problem = authHostedConfigProblem(config);
  if (problem) return { problem };
  // Only what differs from the defaults is kept, so a later default change reaches untouched settings.
  const changed = Object.fromEntries(Object.entries(config).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(AUTH_HOSTED_CONFIG_DEFAULTS[key])));
  await trx
    .updateTable('project_auth_config')
    .set((eb) => ({ hosted: JSON.stringify(changed) as unknown as Record<string, unknown>, updated_at: eb.fn('now') }))
    .where('project_id', '=', projectId)
    .execute();
  return { config };
}
