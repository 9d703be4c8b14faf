import type { FastifyInstance } from 'fastify';
import { logsRoutes } from '@dash/contracts';
import { addRoute } from '@dash/service-kit';
import { setRetentionQuery } from '../sql/retention';
import type { LogsContext } from '../app';

/** Changing how long a project keeps its events: project admins (reading it is with the source routes). */
export async function retentionRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: LogsContext }): Promise<void> {
  addRoute(app, logsRoutes.setRetention, async ({ params, body }) => {
    const { rows } = await ctx.pool.query<{ retention_days: number }>(setRetentionQuery(params.ref, body.retention_days));
    return { retention_days: rows[0]!.retention_days };
  });
}
