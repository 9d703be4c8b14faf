import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ProjectSettingsMessages, type VaultSecret, type VaultSecretCreate } from '@dash/contracts';
import { conflict, isUniqueViolation, notFound } from '@dash/service-kit';
import type { PlatformContext } from './context';
import { ConnectionCipher } from './crypto';
import { storedProjectSecret } from './db/project-secrets';
import type { ProjectRow } from './db/schema';

/*
 * Vault secrets live in the project database (`vault.secrets`, made on first use: projects made before
 * the vault have none until then), each value encrypted with AES-256-GCM under a key of the project that
 * the platform keeps (encrypted with its own key, in `platform.projects`), never in the project database:
 * a copy of that database, or a member reading it with SQL, sees only ciphertext. Each value is bound to
 * its row's id, so a ciphertext copied onto another row does not decrypt.
 */

const VAULT_SQL = [
  // Two first secrets of one project at once: one makes the table, the other waits and finds it.
  `select pg_advisory_xact_lock(hashtext('dash-vault'))`,
  `create schema if not exists vault`,
  `create table if not exists vault.secrets (
    id uuid primary key,
    name text not null unique,
    description text not null default '',
    secret text not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `comment on column vault.secrets.secret is 'AES-256-GCM ciphertext under a key the platform keeps outside this database'`,
];

const vaultKeyContext = (ref: string): string => `project:${ref}:vault-key`;
const secretContext = (id: string): string => `vault-secret:${id}`;

/** The cipher of the project's vault: its own key, made on first use. */
export async function vaultCipher(ctx: PlatformContext, project: Pick<ProjectRow, 'id' | 'ref'>): Promise<ConnectionCipher> {
  const context = vaultKeyContext(project.ref);
  const stored = await storedProjectSecret(ctx.db, project.id, 'vault_key_encrypted', () => ctx.cipher.encrypt(randomBytes(32).toString('hex'), context));
  return new ConnectionCipher(ctx.cipher.decrypt(stored, context));
}

interface SecretRow {
  id: string;
  name: string;
  description: string;
  created_at: Date;
  updated_at: Date;
}

const toSecret = (row: SecretRow): VaultSecret => ({
  id: row.id,
  name: row.name,
  description: row.description,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const LISTED = 'id, name, description, created_at, updated_at';

async function vaultExists(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ exists: boolean }>(`select to_regclass('vault.secrets') is not null as exists`);
  return rows[0]!.exists;
}

export async function listSecrets(client: pg.Client): Promise<VaultSecret[]> {
  if (!(await vaultExists(client))) return [];
  const { rows } = await client.query<SecretRow>(`select ${LISTED} from vault.secrets order by name, id`);
  return rows.map(toSecret);
}

/** Adds a secret inside the caller's transaction, making the vault first if the project has none. */
export async function insertSecret(client: pg.Client, cipher: ConnectionCipher, input: VaultSecretCreate): Promise<VaultSecret> {
  if (!(await vaultExists(client))) for (const statement of VAULT_SQL) await client.query(statement);
  const id = randomUUID();
  try {
    const { rows } = await client.query<SecretRow>(
      `insert into vault.secrets (id, name, description, secret) values ($1, $2, $3, $4) returning ${LISTED}`,
      [id, input.name, input.description ?? '', cipher.encrypt(input.secret, secretContext(id))],
    );
    return toSecret(rows[0]!);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(ProjectSettingsMessages.secretNameTaken(input.name));
    throw error;
  }
}

export async function revealSecret(client: pg.Client, cipher: ConnectionCipher, id: string): Promise<{ id: string; name: string; secret: string }> {
  const { rows } = (await vaultExists(client))
    ? await client.query<{ id: string; name: string; secret: string }>('select id, name, secret from vault.secrets where id = $1', [id])
    : { rows: [] };
  const row = rows[0];
  if (!row) throw notFound(ProjectSettingsMessages.secretNotFound);
  return { id: row.id, name: row.name, secret: cipher.decrypt(row.secret, secretContext(row.id)) };
}

/** Deletes a secret inside the caller's transaction. */
export async function deleteSecret(client: pg.Client, id: string): Promise<VaultSecret> {
  const { rows } = (await vaultExists(client))
    ? await client.query<SecretRow>(`delete from vault.secrets where id = $1 returning ${LISTED}`, [id])
    : { rows: [] };
  if (!rows[0]) throw notFound(ProjectSettingsMessages.secretNotFound);
  return toSecret(rows[0]);
}
