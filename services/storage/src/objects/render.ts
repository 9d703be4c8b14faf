import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type sharp from 'sharp';
import { StorageApiMessages, type ImageTransform } from '@dash/contracts';
import { badRequest } from '@dash/service-kit';
import { noSuchKey } from '../api-errors';
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

/**
 * sharp, loaded on the first render: libvips adds some 20 MB to the RSS of every storage process,
 * most of which never transform an image.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous, lazy load
const loadSharp = () => require('sharp') as typeof sharp;

/** Renders `source` as `variant`; a source that is no image sharp reads is the client's mistake (400). */
export async function renderImage(source: Buffer, variant: Variant): Promise<{ bytes: Buffer; format: string }> {
  const open = loadSharp();
  try {
    const image = open(source, { limitInputPixels: MAX_RENDER_SOURCE_PIXELS }).rotate();
    const { format: sourceFormat } = await image.metadata();
    // sharp reads AVIF as HEIF.
    const origin = sourceFormat === 'heif' ? 'avif' : (sourceFormat ?? 'png');
    const format = variant.format === 'origin' ? (WRITABLE.has(origin) ? origin : 'png') : variant.format;
    if (variant.width || variant.height) {
      image.resize({ width: variant.width ?? undefined, height: variant.height ?? undefined, fit: FIT[variant.resize], withoutEnlargement: true });
    }
    const bytes = await image.toFormat(format as keyof sharp.FormatEnum, { quality: variant.quality }).toBuffer();
    return { bytes, format };
  } catch (error) {
    const message = (error as Error).message ?? '';
    throw badRequest(/pixel limit/i.test(message) ? StorageApiMessages.imageResolutionTooLarge : StorageApiMessages.imageUnsupported);
  }
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Replies with an object's image transformed as `transform` asks: from the render cache when this
 * variant of this version was rendered before (`X-Render-Cache: hit`), else rendered and kept.
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
    const { body } = await ctx.backend.get(key).catch(missingBytesAsNotFound);
    rendered = await renderImage(await readAll(body), variant);
    // A variant that could not be kept is rendered again next time: not worth failing the request.
    await ctx.renders?.write(key, name, rendered.format, rendered.bytes).catch((error: unknown) => request.log.warn({ err: error }, 'a rendered image could not be cached'));
  }
  headers['content-type'] = `image/${rendered.format}`;
  headers['content-length'] = String(rendered.bytes.length);
  return reply.headers(headers).send(rendered.bytes);
}
