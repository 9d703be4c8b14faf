import type { FastifyInstance } from 'fastify';
import { usageLogsRoutes } from '@dash/contracts';
import { addRoute, badRequest, type SqlQuery } from '@dash/service-kit';
import type { LogsContext } from '../app';

/**
 * The response bytes of a set of projects' edge events in [from, to), per project. The gateway writes
 * them as `metadata.response_bytes`; events without a number there (older ones) count as 0. Both time
 * bounds are parameters, so the planner prunes to those days' partitions.
 */
export function egressQuery(input: { refs: string[]; from: Date; to: Date }): SqlQuery {
  return {
    text: `select project_ref as ref,
  coalesce(sum(case when jsonb_typeof(metadata -> 'response_bytes') = 'number' then (metadata ->> 'response_bytes')::numeric else 0 end), 0)::int8 as egress_bytes
from logs.events
where source = 'edge' and project_ref = any($1::text[]) and "timestamp" >= $2::timestamptz and "timestamp" < $3::timestamptz
group by project_ref`,
    values: [input.refs, input.from.toISOString(), input.to.toISOString()],
  };
}

/** Internal: the platform's usage page reads egress here (it does not read the logs schema itself). */
export async function usageRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: LogsContext }): Promise<void> {
  addRoute(app, usageLogsRoutes.egress, async ({ body }) => {
    const from = new Date(body.from);
    const to = new Date(body.to);
    if (from > to) throw badRequest('"from" must not be after "to"');
    const refs = [...new Set(body.refs)];
    const { rows } = await ctx.pool.query<{ ref: string; egress_bytes: string | number }>(egressQuery({ refs, from, to }));
    const bytes = new Map(rows.map((r) => [r.ref, Number(r.egress_bytes)]));
    return { projects: refs.map((ref) => ({ ref, egress_bytes: bytes.get(ref) ?? 0 })) };
  });
}
