import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { StorageApiMessages, storageApiRoutes } from '@dash/contracts';
import { addRoute, projectKeyCallerOf } from '@dash/service-kit';
import { noSuchBucket, noSuchKey } from '../api-errors';
import { asCaller, checkObjectName, findBucket, findObject, isoDate, ownerOf, SERVICE_ROLE, tryAsCaller } from '../objects/common';
import { copyObject } from '../objects/copy';
import { sendObject } from '../objects/download';
import { headerIsTrue, incomingFile, registerUploadParsing } from '../objects/incoming';
import { listFolder, listObjectsV2 } from '../objects/list';
import { moveObject } from '../objects/move';
import { sendRendered } from '../objects/render';
import { removeObjects } from '../objects/remove';
import { signDownloadToken, signUploadToken, verifyDownloadToken, verifyUploadToken } from '../objects/signing';
import { storeObject, writeObjectRow } from '../objects/upload';
import { visibleNamesQuery } from '../sql/objects';
import type { StorageContext } from '../app';

/*
 * The storage API's object routes, as `@supabase/storage-js` calls them (contract: `storageApiRoutes`).
 * Each runs as the database role of the caller's key with its claims, so the policies on
 * `storage.objects` decide; signed and public URLs need no key. The logic lives in `objects/`.
 */

/** Signed URLs as storage-js reads them: relative to `/v1`, the path not encoded (storage-js encodes the whole URL). */
const signedDownloadPath = (bucketId: string, name: string, token: string) => `/object/sign/${bucketId}/${name}?token=${token}`;
const signedRenderPath = (bucketId: string, name: string, token: string) => `/render/image/sign/${bucketId}/${name}?token=${token}`;
const signedUploadPath = (bucketId: string, name: string, token: string) => `/object/upload/sign/${bucketId}/${name}?token=${token}`;

const upsertAsked = (request: FastifyRequest) => headerIsTrue(request.headers['x-upsert']);

/** An object of a public bucket; any other bucket's objects are not there for anyone without a key or a token. */
async function findPublicObject(ctx: StorageContext, ref: string, bucketId: string, name: string) {
  const bucket = await findBucket(ctx, ref, bucketId);
  if (!bucket.public) throw noSuchBucket();
  return findObject(ctx, ref, SERVICE_ROLE, bucketId, name);
}

export async function apiObjectRoutes(app: FastifyInstance, { ctx }: { ctx: StorageContext }): Promise<void> {
  // Uploads take their bodies as streams, in a scope of their own so other routes keep parsing JSON.
  app.register(async (uploads) => {
    await registerUploadParsing(uploads);

    addRoute(uploads, storageApiRoutes.uploadObject, async ({ params, request }) => {
      const target = { ref: params.ref, caller: projectKeyCallerOf(request), bucketId: params.bucket, name: params['*'], upsert: upsertAsked(request) };
      const stored = await storeObject(ctx, target, () => incomingFile(request), request.log);
      return { Id: stored.id, Key: stored.key };
    });

    addRoute(uploads, storageApiRoutes.updateObject, async ({ params, request }) => {
      const target = { ref: params.ref, caller: projectKeyCallerOf(request), bucketId: params.bucket, name: params['*'], upsert: true };
      const stored = await storeObject(ctx, target, () => incomingFile(request), request.log);
      return { Id: stored.id, Key: stored.key };
    });

    addRoute(uploads, storageApiRoutes.signedUpload, async ({ params, query, request }) => {
      const name = params['*'];
      const granted = await verifyUploadToken(ctx, params.ref, params.bucket, name, query.token);
      const target = { ref: params.ref, caller: SERVICE_ROLE, bucketId: params.bucket, name, upsert: granted.upsert, owner: granted.owner };
      const stored = await storeObject(ctx, target, () => incomingFile(request), request.log);
      return { Id: stored.id, Key: stored.key };
    });
  });

  addRoute(app, storageApiRoutes.downloadObject, async ({ params, query, request, reply }) => {
    const object = await findObject(ctx, params.ref, projectKeyCallerOf(request), params.bucket, params['*']);
    return sendObject(ctx, params.ref, object, request, reply, { download: query.download });
  });

  addRoute(app, storageApiRoutes.objectInfo, async ({ params, request }) => {
    const object = await findObject(ctx, params.ref, projectKeyCallerOf(request), params.bucket, params['*']);
    if (!object.metadata || object.version === null) throw noSuchKey();
    return {
      id: object.id,
      version: object.version,
      name: object.name,
      bucket_id: object.bucket_id,
      size: object.metadata.size,
      content_type: object.metadata.mimetype,
      cache_control: object.metadata.cacheControl,
      etag: object.metadata.eTag,
      last_modified: object.metadata.lastModified,
      created_at: isoDate(object.created_at),
      metadata: object.user_metadata,
    };
  });

  addRoute(app, storageApiRoutes.listObjects, async ({ params, body, request }) =>
    listFolder(ctx, params.ref, projectKeyCallerOf(request), params.bucket, body.prefix, body, 'api'),
  );

  addRoute(app, storageApiRoutes.listObjectsV2, async ({ params, body, request }) =>
    listObjectsV2(ctx, params.ref, projectKeyCallerOf(request), params.bucket, body),
  );

  addRoute(app, storageApiRoutes.moveObject, async ({ params, body, request }) => {
    const move = { bucketId: body.bucketId, from: body.sourceKey, toBucketId: body.destinationBucket ?? body.bucketId, to: body.destinationKey };
    await moveObject(ctx, params.ref, projectKeyCallerOf(request), move, request.log);
    return { message: 'Successfully moved' };
  });

  addRoute(app, storageApiRoutes.copyObject, async ({ params, body, request }) => {
    const copied = await copyObject(ctx, params.ref, projectKeyCallerOf(request), body, upsertAsked(request), request.log);
    return { Id: copied.id, Key: copied.key };
  });

  addRoute(app, storageApiRoutes.removeObjects, async ({ params, body, request }) => {
    const rows = await removeObjects(ctx, params.ref, projectKeyCallerOf(request), params.bucket, body.prefixes, request.log);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      bucket_id: row.bucket_id,
      owner: row.owner,
      version: row.version,
      created_at: isoDate(row.created_at),
      updated_at: isoDate(row.updated_at),
      last_accessed_at: isoDate(row.last_accessed_at),
      metadata: row.metadata,
    }));
  });

  addRoute(app, storageApiRoutes.signObject, async ({ params, body, request }) => {
    const name = params['*'];
    await findObject(ctx, params.ref, projectKeyCallerOf(request), params.bucket, name);
    // With a transformation the URL renders the image; the token carries the transformation.
    const transform = body.transform && Object.values(body.transform).some((value) => value !== undefined) ? body.transform : undefined;
    const token = await signDownloadToken(ctx, params.ref, params.bucket, name, body.expiresIn, transform);
    return { signedURL: (transform ? signedRenderPath : signedDownloadPath)(params.bucket, name, token) };
  });

  addRoute(app, storageApiRoutes.signObjects, async ({ params, body, request }) => {
    await findBucket(ctx, params.ref, params.bucket);
    const visible = await asCaller(ctx, params.ref, projectKeyCallerOf(request), async (client) => {
      const query = visibleNamesQuery(params.bucket, body.paths);
      return new Set((await client.query<{ name: string }>(query.text, query.values)).rows.map((row) => row.name));
    });
    return Promise.all(
      body.paths.map(async (path) =>
        visible.has(path)
          ? { path, signedURL: signedDownloadPath(params.bucket, path, await signDownloadToken(ctx, params.ref, params.bucket, path, body.expiresIn)), error: null }
          : { path, signedURL: null, error: StorageApiMessages.signUnavailable },
      ),
    );
  });

  addRoute(app, storageApiRoutes.signedDownload, async ({ params, query, request, reply }) => {
    const name = params['*'];
    await verifyDownloadToken(ctx, params.ref, params.bucket, name, query.token);
    const object = await findObject(ctx, params.ref, SERVICE_ROLE, params.bucket, name);
    return sendObject(ctx, params.ref, object, request, reply, { download: query.download });
  });

  addRoute(app, storageApiRoutes.publicDownload, async ({ params, query, request, reply }) => {
    const object = await findPublicObject(ctx, params.ref, params.bucket, params['*']);
    return sendObject(ctx, params.ref, object, request, reply, { download: query.download });
  });

  addRoute(app, storageApiRoutes.renderAuthenticated, async ({ params, query, request, reply }) => {
    const object = await findObject(ctx, params.ref, projectKeyCallerOf(request), params.bucket, params['*']);
    const { download, ...transform } = query;
    return sendRendered(ctx, params.ref, object, transform, request, reply, { download });
  });

  addRoute(app, storageApiRoutes.renderPublic, async ({ params, query, request, reply }) => {
    const object = await findPublicObject(ctx, params.ref, params.bucket, params['*']);
    const { download, ...transform } = query;
    return sendRendered(ctx, params.ref, object, transform, request, reply, { download });
  });

  addRoute(app, storageApiRoutes.renderSigned, async ({ params, query, request, reply }) => {
    const name = params['*'];
    const transform = await verifyDownloadToken(ctx, params.ref, params.bucket, name, query.token);
    const object = await findObject(ctx, params.ref, SERVICE_ROLE, params.bucket, name);
    return sendRendered(ctx, params.ref, object, transform, request, reply, { download: query.download });
  });

  addRoute(app, storageApiRoutes.signUpload, async ({ params, request }) => {
    const name = params['*'];
    const caller = projectKeyCallerOf(request);
    const upsert = upsertAsked(request);
    checkObjectName(name);
    await findBucket(ctx, params.ref, params.bucket);
    // The caller must be allowed to upload this object now; the token then lets anyone holding it do so.
    const owner = ownerOf(caller);
    const row = { id: randomUUID(), version: randomUUID(), bucketId: params.bucket, name, owner, metadata: {}, userMetadata: null };
    await tryAsCaller(ctx, params.ref, caller, (client) => writeObjectRow(client, row, upsert));
    const token = await signUploadToken(ctx, params.ref, params.bucket, name, owner, upsert);
    return { url: signedUploadPath(params.bucket, name, token), token };
  });
}
