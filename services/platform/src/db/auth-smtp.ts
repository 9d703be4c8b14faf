import type { Kysely } from 'kysely';
import { AUTH_SMTP_DEFAULTS, type AuthSmtpSettings, type AuthSmtpSettingsUpdate } from '@dash/contracts';
import type { Database } from './schema';

/** The stored row in the contract's names; the password stays encrypted and out of it. */
export interface StoredAuthSmtp {
  settings: AuthSmtpSettings;
  passwordEncrypted: string | null;
}

export async function getAuthSmtp(db: Kysely<Database>, projectId: number): Promise<StoredAuthSmtp> {
  const row = await db.selectFrom('project_auth_smtp').selectAll().where('project_id', '=', projectId).executeTakeFirst();
  if (!row) return { settings: AUTH_SMTP_DEFAULTS, passwordEncrypted: null };
  return {
    settings: {
      smtp_enabled: row.enabled,
      smtp_admin_email: row.admin_email,
      smtp_sender_name: row.sender_name,
      smtp_host: row.host,
      smtp_port: row.port,
      smtp_user: row.username,
      smtp_max_frequency: row.max_frequency,
      smtp_pass_set: row.password_encrypted !== null,
    },
    passwordEncrypted: row.password_encrypted,
  };
}

/**
 * Replaces the settings (one upsert). `passwordEncrypted` undefined keeps the stored password. Run it
 * where the caller has checked the rules under `lockAuthSmtp`.
 */
export async function setAuthSmtp(
  db: Kysely<Database>,
  projectId: number,
  update: Omit<AuthSmtpSettingsUpdate, 'smtp_pass'>,
  passwordEncrypted: string | undefined,
): Promise<void> {
  const values = {
    enabled: update.smtp_enabled,
    admin_email: update.smtp_admin_email.trim(),
    sender_name: update.smtp_sender_name.trim(),
    host: update.smtp_host.trim(),
    port: update.smtp_port,
    username: update.smtp_user.trim(),
    max_frequency: update.smtp_max_frequency,
    ...(passwordEncrypted !== undefined ? { password_encrypted: passwordEncrypted } : {}),
  };
  await db
    .insertInto('project_auth_smtp')
    .values({ project_id: projectId, ...values })
    .onConflict((oc) => oc.column('project_id').doUpdateSet((eb) => ({ ...values, updated_at: eb.fn('now') })))
    .execute();
}

/** Locks the project's row (made with the defaults if missing), so two saves check the password rule in turn. */
export async function lockAuthSmtp(trx: Kysely<Database>, projectId: number): Promise<StoredAuthSmtp> {
  const d = AUTH_SMTP_DEFAULTS;
  await trx
    .insertInto('project_auth_smtp')
    .values({ project_id: projectId, enabled: d.smtp_enabled, admin_email: '', sender_name: '', host: '', port: d.smtp_port, username: '', max_frequency: d.smtp_max_frequency })
    .onConflict((oc) => oc.column('project_id').doNothing())
    .execute();
  await trx.selectFrom('project_auth_smtp').select('project_id').where('project_id', '=', projectId).forUpdate().execute();
  return getAuthSmtp(trx, projectId);
}
