import type { FastifyInstance } from 'fastify';
import {
  canAssignRole,
  INVITATION_TTL_MS,
  joinPath,
  NEW_ACCOUNT_PASSWORD_MIN,
  organizationRoutes as orgRoutes,
  OrganizationMessages,
  OrgPermission,
  ServiceMessages,
  type OrgRole,
} from '@dash/contracts';
import { addRoute, badRequest, conflict, forbidden, isUniqueViolation, notFound, unauthorized, userOf } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { recordAudit } from '../audit';
import { hashPassword, newSessionToken, sha256Hex } from '../crypto';
import { deleteInvitationById, findInvitation, findValidInvitation, listInvitations, replaceInvitation } from '../db/invitations';
import { findMember } from '../db/organizations';
import { addMember, findUserByEmail, findUserById, insertUser, normalizeEmail, toUser } from '../db/users';
import { startSession } from './auth';
import { actorOf, memberOrganization } from './organizations';

const invalidInvitation = () => notFound(OrganizationMessages.invitationInvalid);

/**
 * Invitations: managers invite by email (an owner invitation only by an owner); the link `/join?token=…`
 * is shown once, only the token's hash is kept, and it works until it expires, is replaced or is used.
 */
export async function invitationRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, orgRoutes.listInvitations, async ({ identity, params }) => {
    const org = await memberOrganization(ctx.db, identity, params.slug);
    return { invitations: await listInvitations(ctx.db, org.id) };
  });

  addRoute(app, orgRoutes.createInvitation, async ({ identity, params, body }) => {
    const email = normalizeEmail(body.email);
    const token = newSessionToken();
    return ctx.db.transaction().execute(async (trx) => {
      const org = await memberOrganization(trx, identity, params.slug, OrgPermission.MembersWrite);
      if (!canAssignRole(org.role, null, body.role)) throw forbidden(OrganizationMessages.ownerRoleOwnersOnly);
      const existing = await findUserByEmail(trx, email);
      if (existing && (await findMember(trx, org.id, existing.id))) throw conflict(OrganizationMessages.alreadyMember(email));
      const invitation = await replaceInvitation(trx, {
        orgId: org.id,
        email,
        role: body.role,
        tokenHash: sha256Hex(token),
        invitedBy: userOf(identity).sub,
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      });
      await recordAudit(trx, {
        action: 'member.invited',
        actor: actorOf(identity),
        org,
        target: email,
        details: { role: body.role, expires_at: invitation.expires_at },
      });
      return { invitation, accept_path: joinPath(token) };
    });
  });

  addRoute(app, orgRoutes.revokeInvitation, async ({ identity, params }) =>
    ctx.db.transaction().execute(async (trx) => {
      const org = await memberOrganization(trx, identity, params.slug, OrgPermission.MembersWrite);
      const pending = await findInvitation(trx, org.id, params.id);
      if (!pending) throw notFound(OrganizationMessages.invitationNotFound);
      if (!canAssignRole(org.role, null, pending.role)) throw forbidden(OrganizationMessages.ownerRoleOwnersOnly);
      await deleteInvitationById(trx, pending.id);
      await recordAudit(trx, { action: 'invitation.revoked', actor: actorOf(identity), org, target: pending.email, details: { role: pending.role } });
      return { ok: true as const };
    }),
  );

  addRoute(app, orgRoutes.previewInvitation, async ({ body }) => {
    const invitation = await findValidInvitation(ctx.db, sha256Hex(body.token));
    if (!invitation) throw invalidInvitation();
    return {
      organization_name: invitation.organization_name,
      organization_slug: invitation.organization_slug,
      email: invitation.email,
      role: invitation.role,
      expires_at: invitation.expires_at.toISOString(),
      account_exists: (await findUserByEmail(ctx.db, invitation.email)) !== undefined,
    };
  });

  addRoute(app, orgRoutes.acceptInvitation, async ({ identity, body }) =>
    ctx.db.transaction().execute(async (trx) => {
      const invitation = await findValidInvitation(trx, sha256Hex(body.token), { lock: true });
      if (!invitation) throw invalidInvitation();
      const user = await findUserById(trx, userOf(identity).sub);
      if (!user) throw unauthorized(ServiceMessages.signInRequired);
      if (user.email !== invitation.email) throw forbidden(OrganizationMessages.invitationForAnotherEmail(invitation.email));
      await join(trx, invitation, { id: user.id, email: user.email });
      return { organization_slug: invitation.organization_slug };
    }),
  );

  addRoute(app, orgRoutes.signUpWithInvitation, async ({ body, reply }) => {
    const name = body.name.trim();
    if (!name) throw badRequest(OrganizationMessages.nameOfPersonRequired);
    if (body.password.length < NEW_ACCOUNT_PASSWORD_MIN) throw badRequest(OrganizationMessages.passwordTooShort);
    const passwordHash = await hashPassword(body.password);
    return ctx.db.transaction().execute(async (trx) => {
      const invitation = await findValidInvitation(trx, sha256Hex(body.token), { lock: true });
      if (!invitation) throw invalidInvitation();
      if (await findUserByEmail(trx, invitation.email)) throw conflict(OrganizationMessages.accountExists(invitation.email));
      const user = await insertUser(trx, { email: invitation.email, name, passwordHash }).catch((error: unknown) => {
        // The same email signed up through another organization's invitation at this very moment.
        throw isUniqueViolation(error) ? conflict(OrganizationMessages.accountExists(invitation.email)) : error;
      });
      await join(trx, invitation, { id: user.id, email: user.email });
      await startSession(ctx, trx, reply, user.id);
      return { user: toUser(user), organization_slug: invitation.organization_slug };
    });
  });
}

/** The invited user becomes a member with the invitation's role (a member already keeps their role); the link is used up. */
async function join(
  trx: PlatformContext['db'],
  invitation: { id: string; org_id: number; organization_slug: string; email: string; role: OrgRole },
  user: { id: string; email: string },
): Promise<void> {
  await deleteInvitationById(trx, invitation.id);
  if (await findMember(trx, invitation.org_id, user.id)) return;
  await addMember(trx, invitation.org_id, user.id, invitation.role);
  await recordAudit(trx, {
    action: 'member.joined',
    actor: user,
    org: { id: invitation.org_id, slug: invitation.organization_slug },
    target: user.email,
    details: { role: invitation.role },
  });
}
