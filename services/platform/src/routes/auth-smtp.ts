import type { FastifyInstance } from 'fastify';
import { authSmtpProblem, authSmtpRoutes, MAIL_CATCHER_SENDER, Permission, ServiceMessages } from '@dash/contracts';
import { addRoute, badRequest, notFound } from '@dash/service-kit';
import { recordAudit } from '../audit';
import type { PlatformContext } from '../context';
import { getAuthSmtp, lockAuthSmtp, setAuthSmtp } from '../db/auth-smtp';
import { findProjectByRef } from '../db/projects';
import { projectOrganization } from '../db/project-settings';
import { memberProject } from '../projects';
import { actorOf } from './organizations';

/** The cipher's context of a project's SMTP password: a ciphertext copied to another project does not decrypt. */
const smtpPasswordContext = (ref: string) => `auth-smtp:${ref}`;

/**
 * Settings → Authentication → SMTP: members read the settings (never the password), writers replace
 * them, and the services' mailer reads where mail goes (with the password) on the internal route.
 */
export async function authSmtpRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, authSmtpRoutes.getAuthSmtp, async ({ identity, params }) =>
    (await getAuthSmtp(ctx.db, (await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminRead)).id)).settings,
  );

  addRoute(app, authSmtpRoutes.updateAuthSmtp, async ({ identity, params, body }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminWrite);
    const org = await projectOrganization(ctx.db, project.id);
    const { smtp_pass: password, ...settings } = body;
    return ctx.db.transaction().execute(async (trx) => {
      const stored = await lockAuthSmtp(trx, project.id);
      const problem = authSmtpProblem(body, stored.passwordEncrypted !== null);
      if (problem) throw badRequest(problem.message);
      await setAuthSmtp(trx, project.id, settings, password ? ctx.cipher.encrypt(password, smtpPasswordContext(project.ref)) : undefined);
      // The audit names what was saved, never the password itself.
      await recordAudit(trx, {
        action: 'project.auth_config_updated',
        actor: actorOf(identity),
        org,
        projectRef: project.ref,
        target: project.name,
        details: { smtp: { enabled: settings.smtp_enabled, host: settings.smtp_host.trim(), password_changed: Boolean(password) } },
      });
      return (await getAuthSmtp(trx, project.id)).settings;
    });
  });

  addRoute(app, authSmtpRoutes.projectMailDelivery, async ({ params }) => {
    const project = await findProjectByRef(ctx.db, params.ref);
    if (!project) throw notFound(ServiceMessages.projectNotFound);
    const { settings, passwordEncrypted } = await getAuthSmtp(ctx.db, project.id);
    const custom = settings.smtp_enabled && passwordEncrypted !== null;
    return {
      sender: custom ? { email: settings.smtp_admin_email, name: settings.smtp_sender_name } : { ...MAIL_CATCHER_SENDER },
      smtp: custom
        ? { host: settings.smtp_host, port: settings.smtp_port, user: settings.smtp_user, pass: ctx.cipher.decrypt(passwordEncrypted, smtpPasswordContext(project.ref)) }
        : null,
      max_frequency: settings.smtp_max_frequency,
    };
  });
}
