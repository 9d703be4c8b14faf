import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation, routeRequest } from '@dash/shell-sdk/routes';
import {
  EMPTY_FOLDER_PLACEHOLDER,
  STORAGE_UPLOAD_CACHE_CONTROL,
  gatewayPath,
  storageRoutes,
  type RouteBody,
  type RouteDef,
  type StoredObject,
} from '@dash/contracts';

/** Every object call names the project and the bucket. */
export type BucketArg = { ref: string; bucketId: string };

const bucketParams = ({ ref, bucketId }: BucketArg) => ({ ref, id: bucketId });
const UPLOAD_CACHE_CONTROL = `max-age=${STORAGE_UPLOAD_CACHE_CONTROL}`;

/**
 * The explorer's object calls. Listings are not cached (the explorer keeps its own columns and asks
 * again when it needs to); the writes answer the caller, which refreshes the columns they touch.
 */
export const objectsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    storageListObjects: routeQuery(build, storageRoutes.listObjects, {
      parts: ({ body, ...arg }: BucketArg & { body: RouteBody<typeof storageRoutes.listObjects> }) => ({ params: bucketParams(arg), body }),
      keepUnusedDataFor: 0,
    }),
    storagePublicUrl: routeMutation(build, storageRoutes.publicUrl, {
      parts: ({ path, ...arg }: BucketArg & { path: string }) => ({ params: bucketParams(arg), body: { path } }),
    }),
    storageSignUrl: routeMutation(build, storageRoutes.signUrl, {
      parts: ({ path, expiresIn, ...arg }: BucketArg & RouteBody<typeof storageRoutes.signUrl>) => ({ params: bucketParams(arg), body: { path, expiresIn } }),
    }),
    storageMoveObjects: routeMutation(build, storageRoutes.moveObjects, {
      parts: ({ body, ...arg }: BucketArg & { body: RouteBody<typeof storageRoutes.moveObjects> }) => ({ params: bucketParams(arg), body }),
    }),
    storageRemoveObjects: routeMutation(build, storageRoutes.removeObjects, {
      parts: ({ body, ...arg }: BucketArg & { body: RouteBody<typeof storageRoutes.removeObjects> }) => ({ params: bucketParams(arg), body }),
    }),
    /** A folder exists through its hidden placeholder file: an empty upload to `{folder}/.emptyFolderPlaceholder`. */
    storageCreateFolder: build.mutation<StoredObject, BucketArg & { folder: string }>({
      query: ({ folder, ...arg }) => ({
        ...routeRequest(storageRoutes.uploadObject, { params: bucketParams(arg), query: { path: `${folder}/${EMPTY_FOLDER_PLACEHOLDER}`, upsert: true } }),
        body: '',
        headers: { 'content-type': 'application/octet-stream', 'cache-control': UPLOAD_CACHE_CONTROL },
      }),
    }),
  }),
  overrideExisting: 'throw',
});

/** A call that failed: the service's message, and the HTTP status (0 when the server was not reached). */
export class StorageCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'StorageCallError';
  }
}

const origin = () => globalThis.location?.origin ?? '';

function replyMessage(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // not JSON: the status line says enough
  }
  return `The request failed (${status})`;
}

/** POSTs a JSON body to a route that answers with bytes (a file or an archive). */
async function fetchBytes(def: RouteDef, arg: BucketArg, body: unknown, signal?: AbortSignal): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(`${origin()}${gatewayPath(def, bucketParams(arg))}`, {
      method: def.method,
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new StorageCallError('The server could not be reached', 0);
  }
  if (!response.ok) throw new StorageCallError(replyMessage(response.status, await response.text()), response.status);
  return response.blob();
}

/** One file's bytes. */
export function downloadObject(arg: BucketArg & { path: string }, signal?: AbortSignal): Promise<Blob> {
  return fetchBytes(storageRoutes.downloadObject, arg, { path: arg.path }, signal);
}

/** A zip of files and folders (folder paths end in `/`), with entries named relative to `root`. */
export function zipObjects(arg: BucketArg & { body: RouteBody<typeof storageRoutes.zipObjects> }, signal?: AbortSignal): Promise<Blob> {
  return fetchBytes(storageRoutes.zipObjects, arg, arg.body, signal);
}

/** The text of a file behind a preview URL (signed or public), for the text preview. */
export async function fetchPreviewText(url: string, signal?: AbortSignal): Promise<string> {
  const response = await fetch(new URL(url, origin() || undefined).toString(), { signal });
  if (!response.ok) throw new StorageCallError(replyMessage(response.status, await response.text()), response.status);
  return response.text();
}

export interface UploadRequest extends BucketArg {
  /** The object's full path in the bucket. */
  path: string;
  file: Blob;
  upsert?: boolean;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

/** The upload route's URL through the gateway, with the object path (and upsert) as query. */
export function uploadUrl({ ref, bucketId, path, upsert = false }: Pick<UploadRequest, 'ref' | 'bucketId' | 'path' | 'upsert'>): string {
  const query = new URLSearchParams({ path, upsert: String(upsert) });
  return `${origin()}${gatewayPath(storageRoutes.uploadObject, bucketParams({ ref, bucketId }))}?${query}`;
}

/**
 * Uploads one file as the request body. XMLHttpRequest rather than fetch, because only it reports
 * upload progress; the browser streams the file from disk and sends the session cookie itself.
 */
export function uploadFile({ file, onProgress, signal, ...target }: UploadRequest): Promise<StoredObject> {
  return new Promise((resolve, reject) => {
    const cancelled = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    if (signal?.aborted) {
      cancelled();
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', uploadUrl(target));
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('Cache-Control', UPLOAD_CACHE_CONTROL);
    xhr.upload.onprogress = (event) => onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as StoredObject);
        } catch {
          reject(new StorageCallError('The server sent an unreadable reply', xhr.status));
        }
      } else {
        reject(new StorageCallError(replyMessage(xhr.status, xhr.responseText), xhr.status));
      }
    };
    xhr.onerror = () => reject(new StorageCallError('The server could not be reached', 0));
    xhr.onabort = cancelled;
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
