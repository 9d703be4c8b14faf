import type { FastifyInstance } from 'fastify';
import type { Identity, Project } from '@dash/contracts';
import { Permission, projectSettingsRoutes, vaultSecretNameProblem } from '@dash/contracts';
import { addRoute, badRequest, inTransaction } from '@dash/service-kit';
import { recordAudit } from '../audit';
import type { PlatformContext } from '../context';
import { projectOrganization, projectRowById } from '../db/project-settings';
import { withProjectAdmin } from '../project-admin';
import { memberProject, projectRoleConnection } from '../projects';
import { deleteSecret, insertSecret, listSecrets, revealSecret, vaultCipher } from '../vault';
import { actorOf } from './organizations';

/**
 * Vault secrets (see ../vault.ts). Every member lists them by name; members who may change the database
 * (`tenant_sql_admin_write`) create, reveal and delete them. A change and its audit event commit together:
 * the project database's transaction commits first, inside the platform's.
 */
export async function vaultRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  /** The project's admin connection and the audit scope of a change to its vault. */
  const scope = async (identity: Identity | null, project: Project) => {
    const [row, org] = await Promise.all([projectRowById(ctx.db, project.id), projectOrganization(ctx.db, project.id)]);
    return { row, audit: { actor: actorOf(identity), org, projectRef: project.ref } };
  };

  addRoute(app, projectSettingsRoutes.listVaultSecrets, async ({ identity, params }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminRead);
    const row = await projectRowById(ctx.db, project.id);
    return { secrets: await withProjectAdmin(projectRoleConnection(ctx, row, 'admin'), listSecrets) };
  });

  addRoute(app, projectSettingsRoutes.createVaultSecret, async ({ identity, params, body }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminWrite);
    const problem = vaultSecretNameProblem(body.name);
    if (problem) throw badRequest(problem);
    const { row, audit } = await scope(identity, project);
    const cipher = await vaultCipher(ctx, row);
    return ctx.db.transaction().execute((trx) =>
      withProjectAdmin(projectRoleConnection(ctx, row, 'admin'), (client) =>
        inTransaction(client, async () => {
          const secret = await insertSecret(client, cipher, body);
          await recordAudit(trx, { ...audit, action: 'project.secret_created', target: secret.name, details: { id: secret.id } });
          return secret;
        }),
      ),
    );
  });

  // A read, but of a secret: who saw which one is recorded.
  addRoute(app, projectSettingsRoutes.revealVaultSecret, async ({ identity, params }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminWrite);
    const { row, audit } = await scope(identity, project);
    const cipher = await vaultCipher(ctx, row);
    const revealed = await withProjectAdmin(projectRoleConnection(ctx, row, 'admin'), (client) => revealSecret(client, cipher, params.id));
    await recordAudit(ctx.db, { ...audit, action: 'project.secret_revealed', target: revealed.name, details: { id: revealed.id } });
    return revealed;
  });

  addRoute(app, projectSettingsRoutes.deleteVaultSecret, async ({ identity, params }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminWrite);
    const { row, audit } = await scope(identity, project);
    return ctx.db.transaction().execute((trx) =>
      withProjectAdmin(projectRoleConnection(ctx, row, 'admin'), (client) =>
        inTransaction(client, async () => {
          const deleted = await deleteSecret(client, params.id);
          await recordAudit(trx, { ...audit, action: 'project.secret_deleted', target: deleted.name, details: { id: deleted.id } });
          return deleted;
        }),
      ),
    );
  });
}
