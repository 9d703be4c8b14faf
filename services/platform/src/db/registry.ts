import { sql, type Kysely, type Transaction } from 'kysely';
import type { RegistryRemote } from '@dash/contracts';
import type { Database, RemoteVersionRow } from './schema';

/** The product's area order (the shell's project menu keeps the same); anything else after. */
const AREA_ORDER = ['editor', 'sql', 'database', 'auth', 'storage', 'logs', 'reports', 'api'];

export function areaPosition(mount: string): number {
  const index = AREA_ORDER.indexOf(mount.split('/')[0] ?? mount);
  return index === -1 ? AREA_ORDER.length : index;
}

export const toRemote = (row: RemoteVersionRow): RegistryRemote => ({
  name: row.name,
  version: row.version,
  entry: row.entry,
  contract: row.contract,
  mount: row.mount,
  title: row.title,
  ...(row.areas ? { areas: row.areas } : {}),
});

export function byArea(a: Pick<RegistryRemote, 'mount' | 'name'>, b: Pick<RegistryRemote, 'mount' | 'name'>): number {
  return areaPosition(a.mount) - areaPosition(b.mount) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

export async function activeRemotes(db: Kysely<Database>): Promise<RegistryRemote[]> {
  const rows = await db.selectFrom('remote_versions').selectAll().where('active', '=', true).execute();
  return rows.map(toRemote).sort(byArea);
}

export async function allRemoteVersions(db: Kysely<Database>): Promise<RemoteVersionRow[]> {
  return db
    .selectFrom('remote_versions')
    .selectAll()
    .orderBy('name')
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Serializes publish and rollback of one remote (transaction-scoped advisory lock). */
export async function lockRemote(trx: Transaction<Database>, name: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`platform.remote_versions:${name}`}))`.execute(trx);
}

export async function versionsOf(trx: Transaction<Database>, name: string): Promise<RemoteVersionRow[]> {
  return trx
    .selectFrom('remote_versions')
    .selectAll()
    .where('name', '=', name)
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
