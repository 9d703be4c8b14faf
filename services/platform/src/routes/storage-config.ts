import type { FastifyInstance } from 'fastify';
import { FREE_PLAN_UPLOAD_LIMIT_BYTES, Permission, platformRoutes, ServiceMessages, type StorageConfig } from '@dash/contracts';
import { addRoute, badRequest, notFound } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { findProjectByRef } from '../db/projects';
import { getProjectStorage, setUploadLimit } from '../db/storage-config';
import { memberProject, projectJwtSecret } from '../projects';

const MB = 1024 * 1024;
export const FREE_PLAN_LIMIT_FIXED = `On the free plan the upload file size limit is fixed at ${FREE_PLAN_UPLOAD_LIMIT_BYTES / MB} MB (${FREE_PLAN_UPLOAD_LIMIT_BYTES} bytes)`;

async function storageConfig(ctx: PlatformContext, projectId: number): Promise<StorageConfig> {
  const { plan, fileSizeLimit } = await getProjectStorage(ctx.db, projectId);
  return { fileSizeLimit, isFreeTier: plan === 'free' };
}

export async function storageConfigRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, platformRoutes.getStorageConfig, async ({ identity, params }) =>
    storageConfig(ctx, (await memberProject(ctx, identity, params.ref, Permission.ProjectStorageAll)).id),
  );

  // The contract caps the limit at 5 GB (a paid plan's most); the free plan keeps its fixed limit.
  addRoute(app, platformRoutes.updateStorageConfig, async ({ identity, params, body }) => {
    const { id } = await memberProject(ctx, identity, params.ref, Permission.StorageAdminWrite);
    const { plan } = await getProjectStorage(ctx.db, id);
    if (plan === 'free' && body.fileSizeLimit !== FREE_PLAN_UPLOAD_LIMIT_BYTES) throw badRequest(FREE_PLAN_LIMIT_FIXED);
    await setUploadLimit(ctx.db, id, body.fileSizeLimit);
    return storageConfig(ctx, id);
  });

  addRoute(app, platformRoutes.projectStorageSettings, async ({ params }) => {
    const project = await findProjectByRef(ctx.db, params.ref);
    if (!project) throw notFound(ServiceMessages.projectNotFound);
    const { fileSizeLimit } = await getProjectStorage(ctx.db, project.id);
    return { jwtSecret: await projectJwtSecret(ctx, project), fileSizeLimit };
  });
}
