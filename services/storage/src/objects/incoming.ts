import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart, { type Multipart } from '@fastify/multipart';
import { StorageApiMessages } from '@dash/contracts';
import { badRequest } from '@dash/service-kit';
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
    discard: () => {
      raw.resume();
    },
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
  try {
    const cacheControl = fieldValue(part.fields.cacheControl);
    return {
      stream: part.file,
      contentType: contentTypeOf(part.mimetype),
      cacheControl: cacheControlOf(typeof cacheControl === 'string' ? cacheControl : undefined),
      contentLength: null,
      userMetadata: userMetadataOf(fieldValue(part.fields.metadata)),
      cutOff: () => !request.raw.complete,
      discard: () => {
        part.file.resume();
      },
    };
  } catch (error) {
    part.file.resume();
    throw error;
  }
}

/** The file of an upload request, whichever way it is sent. */
export const incomingFile = (request: FastifyRequest): Promise<IncomingFile> =>
  request.isMultipart() ? multipartFile(request) : Promise.resolve().then(() => rawBodyFile(request));
