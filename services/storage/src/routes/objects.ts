import type { FastifyInstance } from 'fastify';
import { StorageApiMessages, storageRoutes } from '@dash/contracts';
import { addRoute, badRequest } from '@dash/service-kit';
import { zipStream } from '../objects/archive';
import { checkObjectName, findBucket, findObject, SERVICE_ROLE } from '../objects/common';
import { attachment, sendObject } from '../objects/download';
import { rawBodyFile, registerUploadParsing } from '../objects/incoming';
import { listFolder } from '../objects/list';
import { moveMany } from '../objects/move';
import { removePaths } from '../objects/remove';
import { encodeObjectPath, publicApiBase, signDownloadToken } from '../objects/signing';
import { storeObject } from '../objects/upload';
import type { StorageContext } from '../app';

/*
 * The dashboard's object routes (contract: `storageRoutes`). The member's permission is checked by each
 * route's access rule; the work then runs as the project's service role, as a hosted dashboard does
 * with the service key. The logic lives in `objects/`, shared with the storage API.
 */
export async function objectRoutes(app: FastifyInstance, { ctx }: { ctx: StorageContext }): Promise<void> {
  app.register(async (uploads) => {
    await registerUploadParsing(uploads);
    // The body is the file's bytes as they are (the dashboard uploads with XHR, for progress).
    addRoute(uploads, storageRoutes.uploadObject, async ({ params, query, request }) => {
      const target = { ref: params.ref, caller: SERVICE_ROLE, bucketId: params.id, name: query.path, upsert: query.upsert ?? false };
      const stored = await storeObject(ctx, target, async () => rawBodyFile(request), request.log);
      return { id: stored.id, path: query.path, fullPath: stored.key };
    });
  });

  addRoute(app, storageRoutes.listObjects, async ({ params, body }) => listFolder(ctx, params.ref, SERVICE_ROLE, params.id, body.path, body.options ?? {}));

  addRoute(app, storageRoutes.publicUrl, async ({ params, body, request }) => {
    checkObjectName(body.path);
    const bucket = await findBucket(ctx, params.ref, params.id);
    if (!bucket.public) throw badRequest(StorageApiMessages.notPublic(params.id));
    return { publicUrl: `${publicApiBase(request, params.ref)}/object/public/${encodeURIComponent(params.id)}/${encodeObjectPath(body.path)}` };
  });

  addRoute(app, storageRoutes.signUrl, async ({ params, body, request }) => {
    await findObject(ctx, params.ref, SERVICE_ROLE, params.id, body.path);
    const token = await signDownloadToken(ctx, params.ref, params.id, body.path, body.expiresIn);
    const path = `${encodeURIComponent(params.id)}/${encodeObjectPath(body.path)}`;
    return { signedUrl: `${publicApiBase(request, params.ref)}/object/sign/${path}?token=${token}` };
  });

  addRoute(app, storageRoutes.downloadObject, async ({ params, body, request, reply }) => {
    const object = await findObject(ctx, params.ref, SERVICE_ROLE, params.id, body.path);
    return sendObject(ctx, params.ref, object, request, reply, { download: '' });
  });

  addRoute(app, storageRoutes.zipObjects, async ({ params, body, reply }) => {
    const archive = await zipStream(ctx, params.ref, params.id, body.paths, body.root ?? '');
    return reply.type('application/zip').header('content-disposition', attachment(body.name)).send(archive);
  });

  addRoute(app, storageRoutes.moveObjects, async ({ params, body }) => ({ moved: await moveMany(ctx, params.ref, params.id, body.moves) }));

  addRoute(app, storageRoutes.removeObjects, async ({ params, body, request }) => ({
    removed: await removePaths(ctx, params.ref, params.id, body.paths, request.log),
  }));
}
