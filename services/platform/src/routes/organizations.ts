import type { FastifyInstance } from 'fastify';
import { platformRoutes } from '@dash/contracts';
import { addRoute, userOf } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { listOrganizationsOf } from '../db/users';

export async function organizationRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, platformRoutes.listOrganizations, async ({ identity }) => ({
    organizations: await listOrganizationsOf(ctx.db, userOf(identity).sub),
  }));
}
