import type { FastifyInstance } from 'fastify';
import { projectDatabasesRoute } from '@dash/contracts';
import { addRoute, databaseOf } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { decryptConnection } from '../projects';

/** Internal: which database is each project's, for the logs service's reading of the Postgres log. */
export async function logSourceRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, projectDatabasesRoute, async () => {
    const rows = await ctx.db.selectFrom('projects').select(['ref', 'connection_encrypted']).execute();
    return { projects: rows.map((row) => ({ ref: row.ref, database: databaseOf(decryptConnection(ctx, row)) })) };
  });
}
