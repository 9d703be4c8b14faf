import type { Kysely } from 'kysely';
import type { OAuthApp } from '@dash/contracts';
import type { Database } from './schema';

function appsQuery(db: Kysely<Database>) {
  return db
    .selectFrom('oauth_apps as a')
    .leftJoin('users as u', 'u.id', 'a.created_by')
    .select(['a.id', 'a.name', 'a.client_id', 'a.redirect_uris', 'a.created_at', 'u.email as created_by_email']);
}

type AppRow = Awaited<ReturnType<ReturnType<typeof appsQuery>['executeTakeFirstOrThrow']>>;

const toApp = (row: AppRow): OAuthApp => ({
  id: row.id,
  name: row.name,
  client_id: row.client_id,
  redirect_uris: row.redirect_uris,
  created_by_email: row.created_by_email,
  created_at: row.created_at.toISOString(),
});

export async function listOAuthApps(db: Kysely<Database>, orgId: number): Promise<OAuthApp[]> {
  const rows = await appsQuery(db).where('a.org_id', '=', orgId).orderBy('a.created_at').orderBy('a.id').execute();
  return rows.map(toApp);
}

export async function insertOAuthApp(
  trx: Kysely<Database>,
  input: { orgId: number; name: string; clientId: string; clientSecretHash: string; redirectUris: string[]; createdBy: string },
): Promise<OAuthApp> {
  const { id } = await trx
    .insertInto('oauth_apps')
    .values({
      org_id: input.orgId,
      name: input.name,
      client_id: input.clientId,
      client_secret_hash: input.clientSecretHash,
      redirect_uris: input.redirectUris,
      created_by: input.createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return toApp(await appsQuery(trx).where('a.id', '=', id).executeTakeFirstOrThrow());
}

/** Deletes one app of the organization; returns it, or undefined when there was none. */
export async function deleteOAuthApp(trx: Kysely<Database>, orgId: number, id: string): Promise<OAuthApp | undefined> {
  const row = await appsQuery(trx).where('a.org_id', '=', orgId).where('a.id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  await trx.deleteFrom('oauth_apps').where('id', '=', id).execute();
  return toApp(row);
}
