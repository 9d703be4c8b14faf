import type { FastifyInstance } from 'fastify';
import { dashConfigRoutes, ServiceMessages } from '@dash/contracts';
import { addRoute, notFound, userOf } from '@dash/service-kit';
import { sql } from 'kysely';
import type { PlatformContext } from '../context';
import { resolveFlags } from '../feature-flags';

/** The variant and the feature flags a page needs; flags only of an organization the caller belongs to. */
export async function dashConfigRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, dashConfigRoutes.dashConfig, async ({ identity, query }) => {
    const userId = userOf(identity).sub;
    let flags: Record<string, unknown> | null = null;
    if (query.project || query.organization) {
      let lookup = ctx.db
        .selectFrom('organizations as o')
        .innerJoin('members as m', (join) => join.onRef('m.org_id', '=', 'o.id').on('m.user_id', '=', userId))
        .select('o.feature_flags');
      lookup = query.project
        ? lookup.innerJoin('projects as p', 'p.org_id', 'o.id').where('p.ref', '=', query.project)
        : lookup.where('o.slug', '=', query.organization!);
      flags = (await lookup.executeTakeFirst())?.feature_flags ?? null;
    }
    return { mode: ctx.mode, flags: resolveFlags(flags, ctx.flagOverrides) };
  });

  addRoute(app, dashConfigRoutes.projectFeatureFlags, async ({ params }) => {
    const row = await ctx.db
      .selectFrom('projects as p')
      .innerJoin('organizations as o', 'o.id', 'p.org_id')
      .select('o.feature_flags')
      .where('p.ref', '=', params.ref)
      .executeTakeFirst();
    if (!row) throw notFound(ServiceMessages.projectNotFound);
    return resolveFlags(row.feature_flags, ctx.flagOverrides);
  });

  // The organization's own setting (what it would be without the deployment's overrides) is returned.
  addRoute(app, dashConfigRoutes.setOrganizationFlags, async ({ params, body }) => {
    const row = await ctx.db
      .updateTable('organizations')
      .set({ feature_flags: sql`feature_flags || ${JSON.stringify(body)}::jsonb` })
      .where('slug', '=', params.slug)
      .returning('feature_flags')
      .executeTakeFirst();
    if (!row) throw notFound(`Organization ${params.slug} not found`);
    return resolveFlags(row.feature_flags, {});
  });
}
