import type { FastifyRequest } from 'fastify';
import { SIGNED_UPLOAD_URL_EXPIRY_SECONDS, StorageApiMessages, type ImageTransform } from '@dash/contracts';
import { signJwt, verifyJwt, type JwtClaims } from '@dash/service-kit';
import { invalidJwt, invalidSignature } from '../api-errors';
import type { StorageContext } from '../app';

/*
 * Signed URLs: a JWT signed with the project's secret names the object (`url: bucket/path`) and when
 * it expires; the token is the only grant, so it is checked against the very object the URL asks for.
 * Upload tokens carry `upload: true` (and the owner and upsert of the one who signed), so neither kind
 * passes for the other. Neither has a `role`, so neither passes for an API key. A download token may
 * carry an image transformation, which its signed rendering URL applies.
 */

type DownloadClaims = JwtClaims & { url: string; transform?: ImageTransform };
type UploadClaims = JwtClaims & { url: string; upload: true; owner: string | null; upsert: boolean };

const objectUrl = (bucketId: string, name: string) => `${bucketId}/${name}`;
const now = () => Math.floor(Date.now() / 1000);

export async function signDownloadToken(ctx: StorageContext, ref: string, bucketId: string, name: string, expiresIn: number, transform?: ImageTransform): Promise<string> {
  const { jwtSecret } = await ctx.settings(ref);
  const claims: DownloadClaims = { url: objectUrl(bucketId, name), exp: now() + expiresIn, ...(transform ? { transform } : {}) };
  return signJwt(jwtSecret, claims);
}

export async function signUploadToken(ctx: StorageContext, ref: string, bucketId: string, name: string, owner: string | null, upsert: boolean): Promise<string> {
  const { jwtSecret } = await ctx.settings(ref);
  const claims: UploadClaims = { url: objectUrl(bucketId, name), upload: true, owner, upsert, exp: now() + SIGNED_UPLOAD_URL_EXPIRY_SECONDS };
  return signJwt(jwtSecret, claims);
}

/** The claims of a token signed for this very object (refused with the reason otherwise, as Supabase Storage refuses it). */
async function verifiedClaims(ctx: StorageContext, ref: string, bucketId: string, name: string, token: string) {
  const { jwtSecret } = await ctx.settings(ref);
  const verified = verifyJwt(jwtSecret, token);
  if ('error' in verified) throw invalidJwt(verified.error);
  if (verified.claims.url !== objectUrl(bucketId, name)) throw invalidSignature(StorageApiMessages.signedUrlMismatch);
  return verified.claims;
}

/** Checks a download token for this object; resolves to the image transformation it was signed with ({} for none). */
export async function verifyDownloadToken(ctx: StorageContext, ref: string, bucketId: string, name: string, token: string): Promise<ImageTransform> {
  const claims = await verifiedClaims(ctx, ref, bucketId, name, token);
  if (claims.upload !== undefined) throw invalidSignature(StorageApiMessages.signedUrlPurpose);
  const transform = claims.transform;
  return transform !== null && typeof transform === 'object' ? (transform as ImageTransform) : {};
}

export async function verifyUploadToken(ctx: StorageContext, ref: string, bucketId: string, name: string, token: string): Promise<{ owner: string | null; upsert: boolean }> {
  const claims = await verifiedClaims(ctx, ref, bucketId, name, token);
  if (claims.upload !== true) throw invalidSignature(StorageApiMessages.signedUrlPurpose);
  return { owner: typeof claims.owner === 'string' ? claims.owner : null, upsert: claims.upsert === true };
}

/** An object path in a URL: each segment percent-encoded, the slashes kept. */
export const encodeObjectPath = (name: string) => name.split('/').map(encodeURIComponent).join('/');

/**
 * The storage API's public base URL as the browser reaches it through the gateway
 * (`<proto>://<host>/p/<ref>/storage/v1`), from the forwarded headers the gateway sets or the Host.
 */
export function publicApiBase(request: FastifyRequest, ref: string): string {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim();
  const proto = first(request.headers['x-forwarded-proto']) || request.protocol;
  const host = first(request.headers['x-forwarded-host']) || request.headers.host || 'localhost';
  return `${proto}://${host}/p/${encodeURIComponent(ref)}/storage/v1`;
}
