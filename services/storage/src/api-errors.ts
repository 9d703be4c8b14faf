import type { FastifyInstance, FastifyReply } from 'fastify';
import { StorageApiMessages } from '@dash/contracts';
import { HttpError } from '@dash/service-kit';

/*
 * Refusals as Supabase Storage words them, for the storage API (what storage-js and apps read):
 * `{ statusCode: '<status as text>', code, error, message }`, carried by HTTP 400 whatever the status
 * in the body (a 404, 409, 413 or 415 included), except server failures (5xx as they are) and the few
 * that Supabase Storage sends with their own status (a role the API refuses, 403; a bad range, 416;
 * a route that does not exist, 404).
 * The dashboard's routes keep the platform's own error replies: a `StorageError` is an `HttpError`
 * there, with its status and its dashboard message.
 */

/** The codes of Supabase Storage's refusals that this service gives. */
export type StorageErrorCode =
  | 'AccessDenied'
  | 'EntityTooLarge'
  | 'InternalError'
  | 'InvalidBucketName'
  | 'InvalidJWT'
  | 'InvalidKey'
  | 'InvalidMimeType'
  | 'InvalidRange'
  | 'InvalidRequest'
  | 'InvalidSignature'
  | 'NoSuchBucket'
  | 'NoSuchKey'
  | 'ResourceAlreadyExists'
  | 'ResourceNotEmpty'
  | 'SlowDown';

/** How the storage API words a refusal: its code, its `error` (the code when not given), and its message when it differs. */
export interface ApiWording {
  code: StorageErrorCode;
  error?: string;
  message?: string;
  /** The HTTP status, for the few refusals not carried by 400. */
  httpStatus?: number;
}

/** A refusal with its storage API wording; `statusCode` is the status the body names (and the dashboard's HTTP status). */
export class StorageError extends HttpError {
  constructor(
    statusCode: number,
    message: string,
    readonly api: ApiWording,
  ) {
    super(statusCode, message);
  }
}

export const noSuchBucket = () => new StorageError(404, StorageApiMessages.bucketNotFound, { code: 'NoSuchBucket', error: 'Bucket not found' });
export const noSuchKey = () => new StorageError(404, StorageApiMessages.objectNotFound, { code: 'NoSuchKey', error: 'not_found' });
/** A name that is taken; the dashboard may say which (`dashboardMessage`). */
export const alreadyExists = (dashboardMessage: string = StorageApiMessages.alreadyExists) =>
  new StorageError(409, dashboardMessage, { code: 'ResourceAlreadyExists', error: 'Duplicate', message: StorageApiMessages.alreadyExists });
/** A refused token or a refused write (row-level security): `httpStatus` 403 for a role the API does not serve. */
export const accessDenied = (message: string, httpStatus?: number) =>
  new StorageError(403, message, { code: 'AccessDenied', error: 'Unauthorized', ...(httpStatus ? { httpStatus } : {}) });
/**
 * Postgres's refusal of a write (42501): row-level security or a missing privilege. The dashboard gets
 * Postgres's words; the API Supabase Storage's, which drop the table name from a row-level security refusal.
 */
export const writeRefused = (postgresMessage: string) =>
  new StorageError(403, postgresMessage, {
    code: 'AccessDenied',
    error: 'Unauthorized',
    message: postgresMessage.includes('row-level security') ? StorageApiMessages.rowLevelSecurity : postgresMessage,
  });
export const invalidJwt = (message: string) => new StorageError(400, message, { code: 'InvalidJWT' });
export const invalidSignature = (message: string) => new StorageError(400, message, { code: 'InvalidSignature' });
/** An object name the service refuses: the dashboard gets the reason, the API Supabase's words. */
export const invalidKey = (name: string, reason: string) => new StorageError(400, reason, { code: 'InvalidKey', message: StorageApiMessages.invalidKey(name) });
export const invalidBucketName = (reason: string) =>
  new StorageError(400, reason, { code: 'InvalidBucketName', error: 'Invalid Input', message: StorageApiMessages.invalidBucketName });
export const entityTooLarge = () => new StorageError(413, StorageApiMessages.tooLarge, { code: 'EntityTooLarge', error: 'Payload too large' });
export const invalidMimeType = (mimeType: string) =>
  new StorageError(415, StorageApiMessages.mimeNotAllowed(mimeType), { code: 'InvalidMimeType', error: 'invalid_mime_type' });
/** Every image render slot and place in line is taken (the caller sets Retry-After). */
export const renderBusy = () => new StorageError(429, StorageApiMessages.renderBusy, { code: 'SlowDown', error: 'Too Many Requests', httpStatus: 429 });
export const invalidRange = () => new StorageError(416, StorageApiMessages.rangeNotSatisfiable, { code: 'InvalidRange', error: 'invalid_range', httpStatus: 416 });

/** The body of a storage API refusal. */
export interface ApiErrorReply {
  statusCode: string;
  code: string;
  error: string;
  message: string;
}

/** The wording of refusals that carry none (the platform's own: validation, body limits, a lost database). */
function wordingOf(status: number): ApiWording {
  if (status === 401 || status === 403) return { code: 'AccessDenied', error: 'Unauthorized' };
  if (status === 413) return { code: 'EntityTooLarge', error: 'Payload too large' };
  if (status === 415) return { code: 'InvalidMimeType', error: 'invalid_mime_type' };
  if (status === 416) return { code: 'InvalidRange', error: 'invalid_range', httpStatus: 416 };
  return status >= 500 ? { code: 'InternalError', error: 'Internal' } : { code: 'InvalidRequest' };
}

/**
 * The storage API's reply for a refusal the platform answered with `status` and `message` (after its
 * error handler, which logs, maps Postgres's errors and drains refused bodies), caused by `error`.
 */
export function apiErrorReply(status: number, message: string, error: unknown): { httpStatus: number; body: ApiErrorReply } {
  const wording = error instanceof StorageError ? error.api : wordingOf(status);
  const named = error instanceof StorageError ? error.statusCode : status;
  return {
    httpStatus: wording.httpStatus ?? (status >= 500 ? status : 400),
    body: { statusCode: String(named), code: wording.code, error: wording.error ?? wording.code, message: wording.message ?? message },
  };
}

/** The storage API's prefix in this service (`/<ref>/v1`), which the gateway maps `/p/<ref>/storage/v1` onto. */
const API_PREFIX = '/:ref/v1';

/**
 * A route under the storage API that does not exist answers as Supabase Storage's does: 404 (not carried
 * by 400), `InvalidRequest`, naming the method and the path as the app addressed it below the API's root.
 * The dashboard's routes keep the platform's 404.
 */
export function registerApiNotFound(app: FastifyInstance): void {
  app.register(
    async (api) => {
      api.setNotFoundHandler((request, reply) => {
        const url = request.raw.url ?? request.url;
        const below = url.replace(/^\/[^/?]*\/v1(?=[/?]|$)/, '') || '/';
        const body: ApiErrorReply = { statusCode: '404', code: 'InvalidRequest', error: 'Not Found', message: StorageApiMessages.routeNotFound(request.method, below) };
        return reply.status(404).type('application/json').send(body);
      });
    },
    { prefix: API_PREFIX },
  );
}

const failures = new WeakMap<FastifyReply, unknown>();

/**
 * Makes every refusal of the routes in `scope` a storage API reply. The platform's error handler
 * still answers first (its status and message are the input); the reply is reworded as it leaves.
 */
export function registerApiErrorReplies(scope: FastifyInstance): void {
  scope.addHook('onError', async (_request, reply, error) => {
    failures.set(reply, error);
  });
  scope.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
    let sent: { message?: unknown };
    try {
      sent = JSON.parse(payload) as { message?: unknown };
    } catch {
      return payload;
    }
    const { httpStatus, body } = apiErrorReply(reply.statusCode, typeof sent.message === 'string' ? sent.message : '', failures.get(reply));
    reply.code(httpStatus);
    return JSON.stringify(body);
  });
}
