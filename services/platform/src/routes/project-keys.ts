import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Permission, platformRoutes, projectSettingsRoutes } from '@dash/contracts';
import { addRoute, signJwt } from '@dash/service-kit';
import { recordAudit } from '../audit';
import type { PlatformContext } from '../context';
import { replaceJwtSecret } from '../db/project-secrets';
import { projectOrganization, projectRowById } from '../db/project-settings';
import { jwtSecretContext, memberProject, projectJwtSecret } from '../projects';
import { actorOf } from './organizations';

/** The first value of a header that proxies may send as a comma-separated list. */
function firstHeader(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  const first = (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim();
  return first || undefined;
}

/** The base of the project's APIs on the origin the browser called (the gateway forwards its own). */
function projectUrlOf(request: FastifyRequest, ref: string): string {
  const proto = firstHeader(request, 'x-forwarded-proto') ?? 'http';
  const host = firstHeader(request, 'x-forwarded-host') ?? firstHeader(request, 'host');
  return `${proto}://${host}/p/${ref}`;
}

/**
 * The project's API keys and the JWT secret that signs them. Rotating the secret takes effect for the
 * storage API within its settings cache (a second): every key and user token signed before is refused.
 */
export async function projectKeyRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  // Keys without `exp`, as a project's API keys are: they stay valid until the secret changes. `iat` is
  // the project's creation, so the same keys come back on every read.
  addRoute(app, platformRoutes.projectApiKeys, async ({ identity, params, request }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminWrite);
    const secret = await projectJwtSecret(ctx, project);
    const iat = Math.floor(Date.parse(project.inserted_at) / 1000);
    const key = (role: string) => signJwt(secret, { iss: 'dash', ref: project.ref, role, iat });
    return { storageUrl: `${projectUrlOf(request, project.ref)}/storage/v1`, anon: key('anon'), service_role: key('service_role') };
  });

  addRoute(app, projectSettingsRoutes.apiSettings, async ({ identity, params, request }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.TenantSqlAdminRead);
    const row = await projectRowById(ctx.db, project.id);
    return { projectUrl: projectUrlOf(request, project.ref), jwtSecretRotatedAt: row.jwt_secret_rotated_at?.toISOString() ?? null };
  });

  addRoute(app, projectSettingsRoutes.rotateJwtSecret, async ({ identity, params, request }) => {
    const project = await memberProject(ctx, identity, params.ref, Permission.ProjectAdminWrite);
    const org = await projectOrganization(ctx.db, project.id);
    const rotatedAt = await ctx.db.transaction().execute(async (trx) => {
      const secret = ctx.cipher.encrypt(randomBytes(32).toString('hex'), jwtSecretContext(project.ref));
      const at = await replaceJwtSecret(trx, project.id, secret);
      await recordAudit(trx, { action: 'project.jwt_secret_rotated', actor: actorOf(identity), org, projectRef: project.ref, target: project.name });
      return at;
    });
    return { projectUrl: projectUrlOf(request, project.ref), jwtSecretRotatedAt: rotatedAt.toISOString() };
  });
}
