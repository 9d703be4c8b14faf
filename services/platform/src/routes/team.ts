import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import {
  canAssignRole,
  canRemoveMember,
  organizationRoutes as orgRoutes,
  OrganizationMessages,
  OrgPermission,
  orgRoleCan,
  ServiceMessages,
  type Identity,
  type OrganizationMember,
} from '@dash/contracts';
import { addRoute, conflict, forbidden, notFound, userOf } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { recordAudit } from '../audit';
import { countOwners, deleteMember, findMember, listMembers, lockOrganization, setMemberRole } from '../db/organizations';
import type { Database } from '../db/schema';
import { actorOf, memberOrganization } from './organizations';

/**
 * Inside a membership change's transaction: the organization (locked, so changes of one organization
 * run one after another), the caller's current role and the member the change is about.
 */
async function lockedChange(trx: Kysely<Database>, identity: Identity | null, slug: string, userId: string) {
  const org = await memberOrganization(trx, identity, slug);
  await lockOrganization(trx, org.id);
  // Read again under the lock: the caller's role may have changed since.
  const actor = await findMember(trx, org.id, userOf(identity).sub);
  if (!actor) throw notFound(OrganizationMessages.organizationNotFound);
  const self = userId === actor.user_id;
  if (!self && !orgRoleCan(actor.role, OrgPermission.MembersWrite)) throw forbidden(ServiceMessages.forbidden);
  const member = await findMember(trx, org.id, userId);
  if (!member) throw notFound(OrganizationMessages.memberNotFound);
  return { org, actor, member, self };
}

async function refuseLastOwner(trx: Kysely<Database>, orgId: number, member: OrganizationMember): Promise<void> {
  if (member.role === 'owner' && (await countOwners(trx, orgId)) === 1) throw conflict(OrganizationMessages.lastOwner);
}

/** Members and their roles: everyone reads; owners and administrators change; only owners touch the owner role. */
export async function teamRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, orgRoutes.listMembers, async ({ identity, params }) => {
    const org = await memberOrganization(ctx.db, identity, params.slug);
    return { members: await listMembers(ctx.db, org.id) };
  });

  addRoute(app, orgRoutes.updateMember, async ({ identity, params, body }) =>
    ctx.db.transaction().execute(async (trx) => {
      const { org, actor, member } = await lockedChange(trx, identity, params.slug, params.userId);
      if (!orgRoleCan(actor.role, OrgPermission.MembersWrite)) throw forbidden(ServiceMessages.forbidden);
      if (member.role === body.role) return member;
      if (!canAssignRole(actor.role, member.role, body.role)) throw forbidden(OrganizationMessages.ownerRoleOwnersOnly);
      await refuseLastOwner(trx, org.id, member);
      const updated = await setMemberRole(trx, org.id, member.user_id, body.role);
      await recordAudit(trx, {
        action: 'member.role_changed',
        actor: actorOf(identity),
        org,
        target: member.email,
        details: { from: member.role, to: body.role },
      });
      return updated;
    }),
  );

  // Anyone may leave; removing someone else is for managers, and an owner only by an owner.
  addRoute(app, orgRoutes.removeMember, async ({ identity, params }) =>
    ctx.db.transaction().execute(async (trx) => {
      const { org, actor, member, self } = await lockedChange(trx, identity, params.slug, params.userId);
      if (!canRemoveMember(actor.role, member.role, self)) throw forbidden(OrganizationMessages.ownerRoleOwnersOnly);
      await refuseLastOwner(trx, org.id, member);
      await deleteMember(trx, org.id, member.user_id);
      await recordAudit(trx, {
        action: 'member.removed',
        actor: actorOf(identity),
        org,
        target: member.email,
        details: { role: member.role, left: self },
      });
      return { ok: true as const };
    }),
  );
}
