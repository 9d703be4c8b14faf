import type { PgExtension } from '@dash/contracts';

/** The extension database webhooks send their requests with. */
export const PG_NET = 'pg_net';

/** pg_net in this database: installed, available on the server to enable, or not on the server at all. */
export function pgNetState(extensions: PgExtension[] | undefined): 'installed' | 'available' | 'unavailable' | undefined {
  if (!extensions) return undefined;
  const pgNet = extensions.find((e) => e.name === PG_NET);
  if (!pgNet) return 'unavailable';
  return pgNet.installed_version ? 'installed' : 'available';
}
