import type { FastifyInstance } from 'fastify';
import { databasePlatformRoutes, type DatabaseWebhook, type ForeignDataWrapper, type SchemaMigration } from '@dash/contracts';
import { addRoute, projectQuery } from '@dash/service-kit';
import { listMigrationsQuery, migrationsTableShapeQuery, type MigrationsTableShape } from '../sql/catalog/migrations';
import { listWebhooksQuery } from '../sql/catalog/webhooks';
import { listWrappersQuery } from '../sql/catalog/wrappers';
import type { PgMetaContext } from '../app';

type WebhookRow = Omit<DatabaseWebhook, 'url' | 'method' | 'timeout_ms'> & { function_args: string[] };

/** `supabase_functions.http_request(url, method, headers, params, timeout_ms)`: only the target is shown. */
export function toWebhook({ function_args, ...row }: WebhookRow): DatabaseWebhook {
  const [url, method, , , timeout] = row.kind === 'http_request' ? function_args : [];
  const timeoutMs = timeout !== undefined && /^\d{1,9}$/.test(timeout) ? Number(timeout) : null;
  return { ...row, url: url ?? null, method: method ?? null, timeout_ms: timeoutMs };
}

/** The database area's Platform pages: wrappers, the CLI's migrations and webhooks, read from the catalog. */
export async function databasePlatformRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, databasePlatformRoutes.listWrappers, async ({ params }) => projectQuery<ForeignDataWrapper>(ctx.pools, params.ref, listWrappersQuery()));

  addRoute(app, databasePlatformRoutes.listMigrations, async ({ params }) => {
    const [shape] = await projectQuery<MigrationsTableShape>(ctx.pools, params.ref, migrationsTableShapeQuery());
    if (!shape?.present) return { table: 'absent' as const, migrations: [] };
    if (!shape.readable) return { table: 'unreadable' as const, migrations: [] };
    return { table: 'present' as const, migrations: await projectQuery<SchemaMigration>(ctx.pools, params.ref, listMigrationsQuery(shape)) };
  });

  addRoute(app, databasePlatformRoutes.listWebhooks, async ({ params }) =>
    (await projectQuery<WebhookRow>(ctx.pools, params.ref, listWebhooksQuery())).map(toWebhook),
  );
}
