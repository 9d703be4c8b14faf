import type { FastifyInstance } from 'fastify';
import { ENTITY_PAGE_SIZE, pgMetaRoutes, type Entity } from '@dash/contracts';
import { addRoute, projectQuery } from '@dash/service-kit';
import { listEntitiesQuery } from '../sql/entities';
import type { PgMetaContext } from '../app';

export async function entityRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, pgMetaRoutes.listEntities, async ({ params, query }) => {
    const limit = query.limit ?? ENTITY_PAGE_SIZE;
    const rows = await projectQuery<Entity>(
      ctx.pools,
      params.ref,
      listEntitiesQuery({ schema: query.schema, search: query.search, sort: query.sort, limit, offset: query.offset ?? 0 }),
    );
    return { data: rows.slice(0, limit), hasMore: rows.length > limit };
  });
}
