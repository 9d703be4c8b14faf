import type { FastifyInstance } from 'fastify';
import { dataApiSettingsProblem, parsePreRequest, Permission, platformRoutes, projectSettingsRoutes, ProjectSettingsMessages, ServiceMessages, type DataApiSettings } from '@dash/contracts';
import { addRoute, badRequest, notFound } from '@dash/service-kit';
import { recordAudit } from '../audit';
import type { PlatformContext } from '../context';
import { getDataApiSettings, setDataApiSettings } from '../db/data-api-config';
import { findProjectByRef } from '../db/projects';
import { projectOrganization, projectRowById } from '../db/project-settings';
import { withProjectAdmin } from '../project-admin';
import { memberProject, projectJwtSecret, projectRoleConnection } from '../projects';
import { actorOf } from './organizations';

/**
 * What the project database says is wrong with `settings`, read as the project's admin role (as the
 * member's own SQL could): schemas that do not exist, a pre-request function that does not exist or
 * takes arguments.
 */
async function databaseProblem(adminConnection: string, settings: DataApiSettings): Promise<string | undefined> {
  const pre = settings.preRequest === null ? undefined : parsePreRequest(settings.preRequest);
  return withProjectAdmin(adminConnection, async (client) => {
    const { rows } = await client.query<{ missing: string[]; pre_request: boolean }>(
      `select array(select s from unnest($1::text[]) with ordinality as u(s, i)
                    where not exists (select 1 from pg_catalog.pg_namespace n where n.nspname = u.s) order by i) as missing,
              exists (select 1 from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
                      where n.nspname = $2 and p.proname = $3 and p.pronargs = 0 and p.prokind = 'f') as pre_request`,
      [[...new Set([...settings.schemas, ...settings.extraSearchPath])], pre?.schema ?? null, pre?.name ?? null],
    );
    const row = rows[0]!;
    if (row.missing.length > 0) return ProjectSettingsMessages.dataApiMissingSchemas(row.missing);
    if (pre && !row.pre_request) return ProjectSettingsMessages.dataApiPreRequestMissing(settings.preRequest!);
    return undefined;
  });
}

/**
 * Settings → API's data API settings: members read them, writers change them (checked against the
 * project database), and the data API services read them with the project's JWT secret.
 */
export async function dataApiSettingsRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, projectSettingsRoutes.dataApiSettings, async ({ identity, params }) =>
    getDataApiSettings(ctx.db, (await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminRead)).id),
  );

  addRoute(app, projectSettingsRoutes.updateDataApiSettings, async ({ identity, params, body }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminWrite);
    const problem = dataApiSettingsProblem(body) ?? (await databaseProblem(projectRoleConnection(ctx, await projectRowById(ctx.db, project.id), 'admin'), body));
    if (problem) throw badRequest(problem);
    const org = await projectOrganization(ctx.db, project.id);
    return ctx.db.transaction().execute(async (trx) => {
      const settings = await setDataApiSettings(trx, project.id, body);
      await recordAudit(trx, { action: 'project.data_api_settings_updated', actor: actorOf(identity), org, projectRef: project.ref, target: project.name, details: settings });
      return settings;
    });
  });

  addRoute(app, platformRoutes.projectDataApiSettings, async ({ params }) => {
    const project = await findProjectByRef(ctx.db, params.ref);
    if (!project) throw notFound(ServiceMessages.projectNotFound);
    return { jwtSecret: await projectJwtSecret(ctx, project), dataApi: await getDataApiSettings(ctx.db, project.id) };
  });
}
