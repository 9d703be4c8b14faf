import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart, { type Multipart } from '@fastify/multipart';
import { StorageApiMessages } from '@dash/contracts';
import { badRequest, MAX_DRAINED_BYTES } from '@dash/service-kit';
import { cacheControlOf, contentTypeOf, userMetadataFromHeader, userMetadataOf } from './rules';
import type { IncomingFile } from './upload';

/*
 * Upload bodies as streams: a raw body (the bytes as they are) or a multipart form (storage-js sends one
 * for a Blob or File). Nothing is buffered: the file's bytes go straight to the backend.
 */

/** At most this many fields in an upload form (storage-js sends `cacheControl`, `metadata` and the file). */
const MAX_FORM_FIELDS = 10;
const MAX_FORM_FIELD_BYTES = 1024 * 1024;

/**
 * Makes the upload routes of `scope` take their bodies as streams: every content type passes through
 * untouched (a `.json` upload is a file, not JSON to parse), except multipart forms, whose file part
 * is streamed as it arrives. No body limit applies here: the upload's own limit is enforced while
 * streaming.
 */
export async function registerUploadParsing(scope: FastifyInstance): Promise<void> {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
  await scope.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: Number.MAX_SAFE_INTEGER, files: 1, fields: MAX_FORM_FIELDS, fieldSize: MAX_FORM_FIELD_BYTES },
  });
  // A refusal waits for the rest of the body (see `readRest`).
  scope.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 400) await readRest(request.raw);
    return payload;
  });
}

/** A refused upload that sends nothing for this long is answered without waiting for the rest. */
const DRAIN_IDLE_MS = 10_000;
/** How long a refused upload cut off by the drain bound may go on sending before its connection goes. */
const DRAIN_LINGER_MS = 5_000;

/**
 * Reads and drops the rest of a refused upload's body, resolving once it has all arrived: only then is
 * the refusal sent. Answering while the client is still sending makes some clients stop sending and
 * keep the connection open for ever, others lose the answer when the connection closes under them;
 * once the body is in, every client reads the answer and can reuse the connection. A client still
 * sending after MAX_DRAINED_BYTES, or silent for DRAIN_IDLE_MS, gets the answer now and its connection
 * is closed DRAIN_LINGER_MS later unless the body ends meanwhile (the delay lets it read the answer).
 */
export function readRest(raw: IncomingMessage): Promise<void> {
  if (raw.complete || raw.destroyed) return Promise.resolve();
  // Whoever was reading the body (the form parser) is done with it.
  raw.unpipe();
  return new Promise((resolve) => {
    let drained = 0;
    let closing: NodeJS.Timeout | undefined;
    const idle = setTimeout(() => giveUp(), DRAIN_IDLE_MS).unref();
    const giveUp = () => {
      clearTimeout(idle);
      closing ??= setTimeout(() => raw.destroy(), DRAIN_LINGER_MS).unref();
      resolve();
    };
    const count = (chunk: Buffer) => {
      drained += chunk.length;
      if (!closing) idle.refresh();
      if (drained > MAX_DRAINED_BYTES) giveUp();
    };
    const finished = () => {
      clearTimeout(idle);
      clearTimeout(closing);
      raw.off('data', count);
      resolve();
    };
    raw.on('data', count);
    raw.once('end', finished);
    raw.once('close', finished);
    raw.resume();
  });
}

/** Resolves true once the whole body of `raw` has arrived, false when its connection closes first. */
function bodyArrived(raw: IncomingMessage): Promise<boolean> {
  if (raw.complete || raw.readableEnded) return Promise.resolve(true);
  // The body's reader (the form parser) reads it to its end, or sees it cut off.
  return new Promise((resolve) => finished(raw, { writable: false }, (error) => resolve(!error || raw.complete)));
}

const firstHeader = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Whether a header says `true` (as `x-upsert` does). */
export const headerIsTrue = (value: string | string[] | undefined) => firstHeader(value)?.trim().toLowerCase() === 'true';

/** The raw body of `request` as the file, described by its Content-Type, Cache-Control and `x-metadata` headers. */
export function rawBodyFile(request: FastifyRequest): IncomingFile {
  const raw = request.raw;
  const length = firstHeader(request.headers['content-length']);
  return {
    stream: raw,
    contentType: contentTypeOf(firstHeader(request.headers['content-type'])),
    cacheControl: cacheControlOf(firstHeader(request.headers['cache-control'])),
    contentLength: length !== undefined && /^\d+$/.test(length) ? Number(length) : null,
    userMetadata: userMetadataFromHeader(firstHeader(request.headers['x-metadata'])),
    cutOff: () => !raw.complete,
    arrived: () => bodyArrived(raw),
  };
}

/** The value of a text field of a form, if it came before the file. */
function fieldValue(part: Multipart | Multipart[] | undefined): unknown {
  const field = Array.isArray(part) ? part[0] : part;
  return field?.type === 'field' ? field.value : undefined;
}

/**
 * The first file of a multipart form (its type from the part's Content-Type), with the form fields
 * `cacheControl` and `metadata` sent before it, as storage-js sends them.
 */
export async function multipartFile(request: FastifyRequest): Promise<IncomingFile> {
  const part = await request.file().catch((error: unknown) => {
    throw request.raw.complete ? error : badRequest(StorageApiMessages.uploadCutOff);
  });
  if (!part) throw badRequest(StorageApiMessages.noFileInForm);
  const cacheControl = fieldValue(part.fields.cacheControl);
  return {
    stream: part.file,
    contentType: contentTypeOf(part.mimetype),
    cacheControl: cacheControlOf(typeof cacheControl === 'string' ? cacheControl : undefined),
    contentLength: null,
    userMetadata: userMetadataOf(fieldValue(part.fields.metadata)),
    cutOff: () => !request.raw.complete,
    arrived: () => bodyArrived(request.raw),
  };
}

/** The file of an upload request, whichever way it is sent. */
export const incomingFile = (request: FastifyRequest): Promise<IncomingFile> =>
  request.isMultipart() ? multipartFile(request) : Promise.resolve().then(() => rawBodyFile(request));
