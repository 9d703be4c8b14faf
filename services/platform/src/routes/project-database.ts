import type { FastifyInstance } from 'fastify';
import { newProjectPasswordProblem, Permission, projectSettingsRoutes, type DatabaseSettings } from '@dash/contracts';
import { addRoute, badRequest, databaseOf, projectRoleName } from '@dash/service-kit';
import { recordAudit } from '../audit';
import type { PlatformContext } from '../context';
import { replaceRolePasswords } from '../db/project-secrets';
import { lockProjectRow, projectOrganization, projectRowById } from '../db/project-settings';
import type { ProjectRow } from '../db/schema';
import { setOwnPassword, withProjectAdmin } from '../project-admin';
import { decryptConnection, decryptRolePasswords, encryptRolePasswords, memberProject, projectRoleConnection } from '../projects';
import { actorOf } from './organizations';

const DEFAULT_POSTGRES_PORT = 5432;

/** How to reach the project database as its admin role: the server's address, never its superuser login. */
function databaseSettingsOf(ctx: PlatformContext, row: ProjectRow): DatabaseSettings {
  const server = decryptConnection(ctx, row);
  const { hostname: host, port } = new URL(server);
  const database = databaseOf(server);
  const user = projectRoleName(database, 'admin');
  const portNumber = Number(port) || DEFAULT_POSTGRES_PORT;
  return {
    host,
    port: portNumber,
    database,
    user,
    connectionString: `postgresql://${encodeURIComponent(user)}:[YOUR-PASSWORD]@${host}:${portNumber}/${encodeURIComponent(database)}`,
    passwordResetAt: row.database_password_reset_at?.toISOString() ?? null,
  };
}

export async function projectDatabaseRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, projectSettingsRoutes.databaseSettings, async ({ identity, params }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminRead);
    return databaseSettingsOf(ctx, await projectRowById(ctx.db, project.id));
  });

  // One flow, never as the server's superuser: the admin role sets its own password, and the platform
  // keeps the new one (encrypted) for the services, whose pools ask again when the old one is refused.
  addRoute(app, projectSettingsRoutes.resetDatabasePassword, async ({ identity, params, body }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.ProjectAdminWrite);
    // The rule the password had when the project was made: a reset does not weaken it.
    const problem = newProjectPasswordProblem(body.password);
    if (problem) throw badRequest(problem);
    const org = await projectOrganization(ctx.db, project.id);
    const row = await ctx.db.transaction().execute(async (trx) => {
      const current = await lockProjectRow(trx, project.id);
      const passwords = { ...decryptRolePasswords(ctx, current), admin: body.password };
      await replaceRolePasswords(trx, current.id, encryptRolePasswords(ctx, current.ref, passwords));
      await recordAudit(trx, { action: 'project.database_password_reset', actor: actorOf(identity), org, projectRef: current.ref, target: current.name });
      // Last, logged in with the password the role has until now: if Postgres refuses, the stored password
      // and the audit event roll back with the transaction.
      await withProjectAdmin(projectRoleConnection(ctx, current, 'admin'), (client) => setOwnPassword(client, body.password));
      return projectRowById(trx, current.id);
    });
    return databaseSettingsOf(ctx, row);
  });
}
