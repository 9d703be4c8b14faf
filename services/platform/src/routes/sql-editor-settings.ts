import type { FastifyInstance } from 'fastify';
import { contentRoutes, Permission, ServiceMessages } from '@dash/contracts';
import { addRoute, notFound } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { findProjectByRef } from '../db/projects';
import { getSqlEditorSettings, setSqlEditorSettings } from '../db/sql-editor-config';
import { memberProject } from '../projects';

/** The project's SQL editor settings: members read them, writers change them, pg-meta applies them. */
export async function sqlEditorSettingsRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, contentRoutes.getSqlEditorSettings, async ({ identity, params }) =>
    getSqlEditorSettings(ctx.db, (await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminRead)).id),
  );

  // The contract bounds the timeout (400 outside them) before the handler runs.
  addRoute(app, contentRoutes.updateSqlEditorSettings, async ({ identity, params, body }) =>
    setSqlEditorSettings(ctx.db, (await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminWrite)).id, body),
  );

  addRoute(app, contentRoutes.internalSqlEditorSettings, async ({ params }) => {
    const project = await findProjectByRef(ctx.db, params.ref);
    if (!project) throw notFound(ServiceMessages.projectNotFound);
    return getSqlEditorSettings(ctx.db, project.id);
  });
}
