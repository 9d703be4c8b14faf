import type { FastifyInstance } from 'fastify';
import { accountRoutes, AccountMessages, ServiceMessages, type Identity } from '@dash/contracts';
import { addRoute, badRequest, unauthorized } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { toProfile, updateProfile } from '../db/profile';
import { findUserById, isUserId } from '../db/users';
import { actorOf } from './organizations';

/** The signed-in user (as an audit actor) of an account route; a sub that is no user id is no user (401, not a SQL error). */
export function accountUser(identity: Identity | null): { id: string; email: string } {
  const actor = actorOf(identity);
  if (!isUserId(actor.id)) throw unauthorized(ServiceMessages.signInRequired);
  return actor;
}

/** /account/me: the signed-in user's name and theme. */
export async function accountProfileRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, accountRoutes.getProfile, async ({ identity }) => {
    const user = await findUserById(ctx.db, accountUser(identity).id);
    if (!user) throw unauthorized(ServiceMessages.signInRequired);
    return toProfile(user);
  });

  addRoute(app, accountRoutes.updateProfile, async ({ identity, body }) => {
    const name = body.name?.trim();
    if (name === '') throw badRequest(AccountMessages.nameRequired);
    const profile = await updateProfile(ctx.db, accountUser(identity).id, {
      ...(name !== undefined ? { name } : {}),
      ...(body.theme !== undefined ? { theme: body.theme } : {}),
    });
    if (!profile) throw unauthorized(ServiceMessages.signInRequired);
    return profile;
  });
}
