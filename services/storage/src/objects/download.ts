import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidRange, noSuchKey } from '../api-errors';
import type { ByteRange } from '../backend/types';
import { bytesKeyOf, missingBytesAsNotFound, type ObjectRecord } from './common';
import type { StorageContext } from '../app';

/*
 * Sending an object's bytes: streamed from the backend with the headers a browser and a video player
 * need (type, length, entity tag, cache control, last modified), byte ranges (206) for seeking in
 * audio and video, conditional requests (304), HEAD without the bytes, and attachments for downloads.
 */

/**
 * `addRoute` sets the contract's status after the handler returns; a 206 or 304 is kept here and put
 * in place just before the reply is sent.
 */
const statusOverrides = new WeakMap<FastifyReply, number>();

/** Installs the hook that applies `statusOverrides` (once, on the app). */
export function registerReplyStatus(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    const status = statusOverrides.get(reply);
    if (status !== undefined) reply.code(status);
    return payload;
  });
}

/**
 * The single byte range a Range header asks for, within an object of `size` bytes: null to send it
 * all (no header, or one this service does not serve: several ranges, another unit, a malformed one),
 * 'unsatisfiable' when it starts past the end.
 */
export function parseRange(header: string | undefined, size: number): Required<ByteRange> | 'unsatisfiable' | null {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

/** A Content-Disposition that makes browsers save the file as `fileName`, whatever its characters. */
export function attachment(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Whether the client's copy (If-None-Match) is the current one. */
function clientHasCurrent(request: FastifyRequest, eTag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === eTag || t === `W/${eTag}`;
  });
}

/** A 304 with `headers` when the client's copy (If-None-Match) is the current one; null otherwise. */
export function notModified(request: FastifyRequest, reply: FastifyReply, eTag: string, headers: Record<string, string>): FastifyReply | null {
  if (!clientHasCurrent(request, eTag)) return null;
  statusOverrides.set(reply, 304);
  return reply.headers(headers).send();
}

export interface SendOptions {
  /** Send as an attachment named this ('' for the object's own file name). */
  download?: string;
}

/** Replies with the object's bytes (or a part of them, or only its headers for HEAD). */
export async function sendObject(ctx: StorageContext, ref: string, object: ObjectRecord, request: FastifyRequest, reply: FastifyReply, options: SendOptions = {}): Promise<FastifyReply> {
  const metadata = object.metadata;
  const key = bytesKeyOf(ref, object);
  // A row without bytes (made outside this service, or an upload that never finished) has nothing to send.
  if (!metadata || !key) throw noSuchKey();
  const size = metadata.size;
  const headers: Record<string, string> = {
    'content-type': metadata.mimetype,
    'cache-control': metadata.cacheControl,
    etag: metadata.eTag,
    'last-modified': new Date(metadata.lastModified).toUTCString(),
    'accept-ranges': 'bytes',
  };
  if (options.download !== undefined) headers['content-disposition'] = attachment(options.download || object.name.split('/').pop()!);

  const unchanged = notModified(request, reply, metadata.eTag, headers);
  if (unchanged) return unchanged;
  const range = parseRange(request.headers.range, size);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${size}`);
    throw invalidRange();
  }
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
  headers['content-length'] = String(range ? range.end - range.start + 1 : size);

  // HEAD: the headers only. An empty stream keeps Fastify from replacing our Content-Length with 0.
  let body: Readable = Readable.from([]);
  if (request.method !== 'HEAD') {
    body = (await ctx.backend.get(key, range ?? undefined).catch(missingBytesAsNotFound)).body;
  }
  if (range) statusOverrides.set(reply, 206);
  return reply.headers(headers).send(body);
}
