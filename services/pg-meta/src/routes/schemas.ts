import { pgMetaRoutes, type PgSchema } from '@dash/contracts';
import { addRoute, type ServiceApp } from '@dash/service-kit';
import { catalogQuery } from '../db/project-db';
import { listSchemasQuery } from '../sql/schemas';
import type { PgMetaContext } from '../app';

export function registerSchemaRoutes(app: ServiceApp, ctx: PgMetaContext): void {
  addRoute(app, pgMetaRoutes.listSchemas, async ({ params, query }) =>
    catalogQuery<PgSchema>(ctx.pools, params.ref, listSchemasQuery({ includeSystemSchemas: query.include_system_schemas })),
  );
}
