import type { FastifyInstance } from 'fastify';
import { ADDON_CATALOG, Permission, ProjectSettingsMessages, projectSettingsRoutes, type ProjectAddons, type SelectedAddon } from '@dash/contracts';
import { addRoute, badRequest, notFound } from '@dash/service-kit';
import type { Kysely } from 'kysely';
import { recordAudit } from '../audit';
import { pitrArchiveOf } from '../backups/pitr';
import type { PlatformContext } from '../context';
import { projectOrganization, projectRowById, removeAddon, selectAddon, selectedAddons } from '../db/project-settings';
import type { Database } from '../db/schema';
import { memberProject } from '../projects';
import { actorOf } from './organizations';

const catalogEntry = (type: string) => ADDON_CATALOG.find((entry) => entry.type === type);

/** The project's add-ons as the settings page and the backups page read them (`selected_addons`). */
async function projectAddons(db: Kysely<Database>, project: { id: number; ref: string }): Promise<ProjectAddons> {
  const [row, selected] = await Promise.all([projectRowById(db, project.id), selectedAddons(db, project.id)]);
  const selected_addons: SelectedAddon[] = [];
  for (const { type, variant } of selected) {
    const known = catalogEntry(type)?.variants.find((v) => v.identifier === variant);
    if (known) selected_addons.push({ type, variant: known });
  }
  return {
    ref: project.ref,
    selected_addons,
    available_addons: ADDON_CATALOG.map(({ type, name, description, variants }) => ({ type, name, description, variants })),
    isFreeTier: row.plan === 'free',
  };
}

/**
 * Add-ons change the bill: owners and administrators choose them (`project_admin_write`), on a paid plan
 * only; every member sees which are selected.
 */
export async function addonRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, projectSettingsRoutes.listAddons, async ({ identity, params }) =>
    projectAddons(ctx.db, await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminRead)),
  );

  addRoute(app, projectSettingsRoutes.selectAddon, async ({ identity, params, body }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.ProjectAdminWrite);
    const entry = catalogEntry(body.addon_type)!;
    const variant = entry.variants.find((v) => v.identifier === body.addon_variant);
    if (!variant) throw badRequest(ProjectSettingsMessages.addonUnknownVariant(body.addon_variant, body.addon_type));
    const [row, org] = await Promise.all([projectRowById(ctx.db, project.id), projectOrganization(ctx.db, project.id)]);
    if (row.plan === 'free') throw badRequest(ProjectSettingsMessages.addonNeedsPaidPlan);
    const addons = await ctx.db.transaction().execute(async (trx) => {
      const previous = await selectAddon(trx, project.id, entry.type, variant.identifier);
      await recordAudit(trx, {
        action: 'project.addon_selected',
        actor: actorOf(identity),
        org,
        projectRef: project.ref,
        target: `${entry.name}: ${variant.name}`,
        details: { type: entry.type, variant: variant.identifier, previous: previous ?? null },
      });
      return projectAddons(trx, project);
    });
    // The recovery window opens with the first base backup, taken now rather than at the next hourly look.
    if (entry.type === 'pitr') void pitrArchiveOf(ctx)?.maintain().catch((error: unknown) => app.log.warn(`point in time recovery archive: ${(error as Error).message}`));
    return addons;
  });

  addRoute(app, projectSettingsRoutes.removeAddon, async ({ identity, params }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.ProjectAdminWrite);
    const org = await projectOrganization(ctx.db, project.id);
    return ctx.db.transaction().execute(async (trx) => {
      const type = await removeAddon(trx, project.id, params.variant);
      if (!type) throw notFound(ProjectSettingsMessages.addonNotSelected(params.variant));
      const entry = catalogEntry(type)!;
      const variant = entry.variants.find((v) => v.identifier === params.variant);
      await recordAudit(trx, {
        action: 'project.addon_removed',
        actor: actorOf(identity),
        org,
        projectRef: project.ref,
        target: `${entry.name}: ${variant?.name ?? params.variant}`,
        details: { type, variant: params.variant },
      });
      return projectAddons(trx, project);
    });
  });
}
