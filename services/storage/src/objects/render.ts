import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type sharp from 'sharp';
import { StorageApiMessages, type ImageTransform } from '@dash/contracts';
import { badRequest } from '@dash/service-kit';
import { noSuchKey, renderBusy } from '../api-errors';
import { bytesKeyOf, missingBytesAsNotFound, type ObjectRecord } from './common';
import { attachment, notModified, type SendOptions } from './download';
import type { StorageContext } from '../app';

/*
 * Image transformations (the storage API's `render/image` routes): an object's image resized and
 * re-encoded with sharp, as Supabase Storage's renderer does with imgproxy, and kept per variant in
 * the render cache (a variant is one version of one object under one transformation).
 */

/** The largest width or height a transformation gives (larger asks are clamped). */
export const MAX_RENDER_SIZE = 2500;
/** Sources above this size or resolution are not rendered (as Supabase Storage's hosted limits). */
export const MAX_RENDER_SOURCE_BYTES = 25 * 1024 * 1024;
export const MAX_RENDER_SOURCE_PIXELS = 50_000_000;
const DEFAULT_QUALITY = 80;

/** What is rendered: sizes within bounds, defaults filled in, and the format asked for (`origin`: the source's). */
export interface Variant {
  width: number | null;
  height: number | null;
  resize: 'cover' | 'contain' | 'fill';
  quality: number;
  format: 'origin' | 'webp' | 'avif';
}

const sizeOf = (value: number | undefined) => (value ? Math.min(Math.max(Math.trunc(value), 1), MAX_RENDER_SIZE) : null);

/**
 * The variant a transformation asks for. Without a format, a client that accepts WebP (its Accept
 * header names `image/webp`, as browsers' do) gets WebP, any other the source's format.
 */
export function variantOf(transform: ImageTransform, accept: string | undefined): Variant {
  const takesWebp = /\bimage\/webp\b/i.test(accept ?? '');
  return {
    width: sizeOf(transform.width),
    height: sizeOf(transform.height),
    resize: transform.resize ?? 'cover',
    quality: transform.quality ?? DEFAULT_QUALITY,
    format: transform.format ?? (takesWebp ? 'webp' : 'origin'),
  };
}

/** A variant's name in the cache (stable for the same variant). */
export const variantName = (variant: Variant): string =>
  createHash('sha256').update(JSON.stringify([variant.width, variant.height, variant.resize, variant.quality, variant.format])).digest('hex').slice(0, 32);

/** The transformations applied, as Supabase Storage lists them in `X-Transformations`. */
export function transformationsOf(variant: Variant): string {
  const parts: string[] = [];
  if (variant.height) parts.push(`height:${variant.height}`);
  if (variant.width) parts.push(`width:${variant.width}`);
  if (variant.width || variant.height) parts.push(`resize:${variant.resize}`);
  parts.push(`quality:${variant.quality}`);
  if (variant.format !== 'origin') parts.push(`format:${variant.format}`);
  return parts.join(',');
}

/** sharp's fit for each resize mode: cover crops to fill the box, contain fits inside it, fill stretches. */
const FIT = { cover: 'cover', contain: 'inside', fill: 'fill' } as const;
/** Formats sharp writes; a source in another (SVG, PDF...) is rendered as PNG. */
const WRITABLE = new Set(['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff']);

let sharpModule: typeof sharp | undefined;

/**
 * sharp, loaded on the first render: libvips adds some 20 MB to the RSS of every storage process,
 * most of which never transform an image. One libvips thread per render and no operation cache: a
 * render's memory is then its own pixels only, and the render slots bound how many run.
 */
function loadSharp(): typeof sharp {
  if (!sharpModule) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous, lazy load
    sharpModule = require('sharp') as typeof sharp;
    sharpModule.concurrency(1);
    sharpModule.cache(false);
  }
  return sharpModule;
}

/** sharp's refusal of a source: past the pixel limit, or no image it reads (the client's mistake, 400). */
function unreadable(error: unknown): never {
  const message = (error as Error | null)?.message ?? '';
  throw badRequest(/pixel limit/i.test(message) ? StorageApiMessages.imageResolutionTooLarge : StorageApiMessages.imageUnsupported);
}

/** The size of the image `variant` gives of a source of `source` size (as sharp resizes: never enlarging). */
export function outputSize(source: { width: number; height: number }, variant: Variant): { width: number; height: number } {
  const { width, height } = variant;
  // A box (both sides given) holds the output whatever the fit.
  if (width && height) return { width: Math.min(width, source.width), height: Math.min(height, source.height) };
  // One side: fill changes that side only, cover and contain scale the other with it.
  const scale = variant.resize === 'fill' ? 1 : width ? Math.min(1, width / source.width) : height ? Math.min(1, height / source.height) : 1;
  return {
    width: width ? Math.min(width, source.width) : Math.round(source.width * scale),
    height: height ? Math.min(height, source.height) : Math.round(source.height * scale),
  };
}

/**
 * Renders `source` as `variant`. Refused (400): a source that is no image sharp reads, one of more than
 * MAX_RENDER_SOURCE_PIXELS (read from its header, before any decoding), and a variant whose asked size
 * would give an output more than MAX_RENDER_SIZE wide or high (one side of a very long image). With no
 * size asked (a format or quality change), a larger source is fitted within MAX_RENDER_SIZE.
 */
export async function renderImage(source: Buffer, variant: Variant): Promise<{ bytes: Buffer; format: string }> {
  const image = loadSharp()(source, { limitInputPixels: MAX_RENDER_SOURCE_PIXELS }).rotate();
  const { format: sourceFormat, autoOrient } = await image.metadata().catch(unreadable);
  if (autoOrient.width * autoOrient.height > MAX_RENDER_SOURCE_PIXELS) throw badRequest(StorageApiMessages.imageResolutionTooLarge);
  const sized = Boolean(variant.width || variant.height);
  const output = outputSize(autoOrient, variant);
  if (sized && Math.max(output.width, output.height) > MAX_RENDER_SIZE) throw badRequest(StorageApiMessages.imageOutputTooLarge(MAX_RENDER_SIZE));
  // sharp reads AVIF as HEIF.
  const origin = sourceFormat === 'heif' ? 'avif' : (sourceFormat ?? 'png');
  const format = variant.format === 'origin' ? (WRITABLE.has(origin) ? origin : 'png') : variant.format;
  if (sized) {
    image.resize({ width: variant.width ?? undefined, height: variant.height ?? undefined, fit: FIT[variant.resize], withoutEnlargement: true });
  } else if (Math.max(output.width, output.height) > MAX_RENDER_SIZE) {
    image.resize({ width: MAX_RENDER_SIZE, height: MAX_RENDER_SIZE, fit: 'inside' });
  }
  const bytes = await image.toFormat(format as keyof sharp.FormatEnum, { quality: variant.quality }).toBuffer().catch(unreadable);
  return { bytes, format };
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Seconds a render refused for want of a slot is told to wait (a render takes about a second). */
const RENDER_RETRY_AFTER_SECONDS = 1;

/**
 * Renders a variant in a render slot and keeps it. A request that waited in line for the slot may
 * find the variant rendered meanwhile (by a request for the same one).
 */
function renderInSlot(ctx: StorageContext, key: string, name: string, variant: Variant, request: FastifyRequest, reply: FastifyReply): Promise<{ bytes: Buffer; format: string }> {
  const rendering = ctx.renderSlots.run(async () => {
    const cached = await ctx.renders?.read(key, name);
    if (cached) return cached;
    const { body } = await ctx.backend.get(key).catch(missingBytesAsNotFound);
    const rendered = await renderImage(await readAll(body), variant);
    // A variant that could not be kept is rendered again next time: not worth failing the request.
    await ctx.renders?.write(key, name, rendered.format, rendered.bytes).catch((error: unknown) => request.log.warn({ err: error }, 'a rendered image could not be cached'));
    return rendered;
  });
  if (rendering) return rendering;
  reply.header('retry-after', String(RENDER_RETRY_AFTER_SECONDS));
  throw renderBusy();
}

/**
 * Replies with an object's image transformed as `transform` asks: from the render cache when this
 * variant of this version was rendered before (`X-Render-Cache: hit`, no render slot taken), else
 * rendered in a render slot and kept; 429 with Retry-After when every slot and place in line is taken.
 */
export async function sendRendered(
  ctx: StorageContext,
  ref: string,
  object: ObjectRecord,
  transform: ImageTransform,
  request: FastifyRequest,
  reply: FastifyReply,
  options: SendOptions = {},
): Promise<FastifyReply> {
  const metadata = object.metadata;
  const key = bytesKeyOf(ref, object);
  if (!metadata || !key) throw noSuchKey();
  const variant = variantOf(transform, request.headers.accept);
  const headers: Record<string, string> = {
    'cache-control': metadata.cacheControl,
    etag: metadata.eTag,
    'last-modified': new Date(metadata.lastModified).toUTCString(),
    'x-transformations': transformationsOf(variant),
  };
  // Without a format the reply depends on what the client accepts.
  if (transform.format === undefined) headers.vary = 'Accept';
  if (options.download !== undefined) headers['content-disposition'] = attachment(options.download || object.name.split('/').pop()!);
  const unchanged = notModified(request, reply, metadata.eTag, headers);
  if (unchanged) return unchanged;

  const name = variantName(variant);
  let rendered = await ctx.renders?.read(key, name);
  headers['x-render-cache'] = rendered ? 'hit' : 'miss';
  if (!rendered) {
    if (metadata.size > MAX_RENDER_SOURCE_BYTES) throw badRequest(StorageApiMessages.imageFileTooLarge);
    rendered = await renderInSlot(ctx, key, name, variant, request, reply);
  }
  headers['content-type'] = `image/${rendered.format}`;
  headers['content-length'] = String(rendered.bytes.length);
  return reply.headers(headers).send(rendered.bytes);
}
