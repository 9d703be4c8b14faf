import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import {
  organizationRoutes as orgRoutes,
  OrganizationMessages,
  OrgPermission,
  orgRoleCan,
  platformRoutes,
  ServiceMessages,
  type Identity,
  type OrganizationDetail,
  type OrgPermissionName,
} from '@dash/contracts';
import { addRoute, badRequest, forbidden, notFound, userOf } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { recordAudit } from '../audit';
import { findOrganizationOf, renameOrganization } from '../db/organizations';
import type { Database } from '../db/schema';
import { listOrganizationsOf } from '../db/users';

/**
 * The organization as the caller sees it, when the caller is a member (holding `permission` when one
 * is named). The identity carries project roles only, so the role is read from the members table; an
 * organization the caller is not a member of does not exist for them (404). Pass a transaction to read
 * the role inside it.
 */
export async function memberOrganization(
  db: Kysely<Database>,
  identity: Identity | null,
  slug: string,
  permission?: OrgPermissionName,
): Promise<OrganizationDetail> {
  const org = await findOrganizationOf(db, userOf(identity).sub, slug);
  if (!org) throw notFound(OrganizationMessages.organizationNotFound);
  if (permission && !orgRoleCan(org.role, permission)) throw forbidden(ServiceMessages.forbidden);
  return org;
}

/** The signed-in user as an audit actor. */
export function actorOf(identity: Identity | null): { id: string; email: string } {
  const user = userOf(identity);
  return { id: user.sub, email: user.email };
}

export async function organizationRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, platformRoutes.listOrganizations, async ({ identity }) => ({
    organizations: await listOrganizationsOf(ctx.db, userOf(identity).sub),
  }));

  addRoute(app, orgRoutes.getOrganization, async ({ identity, params }) => memberOrganization(ctx.db, identity, params.slug));

  addRoute(app, orgRoutes.updateOrganization, async ({ identity, params, body }) => {
    const name = body.name.trim();
    if (!name) throw badRequest(OrganizationMessages.nameRequired);
    return ctx.db.transaction().execute(async (trx) => {
      const org = await memberOrganization(trx, identity, params.slug, OrgPermission.SettingsWrite);
      if (name === org.name) return org;
      await renameOrganization(trx, org.id, name);
      await recordAudit(trx, {
        action: 'organization.renamed',
        actor: actorOf(identity),
        org,
        target: name,
        details: { from: org.name, to: name },
      });
      return { ...org, name };
    });
  });
}
