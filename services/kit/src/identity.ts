import { createHmac, timingSafeEqual } from 'node:crypto';
import { Value } from '@sinclair/typebox/value';
import type { TSchema, Static } from '@sinclair/typebox';
import { ForwardedClient, Identity, IDENTITY_TTL_SECONDS, type OrgRole } from '@dash/contracts';

type Unsigned<T> = T extends unknown ? Omit<T, 'exp'> : never;

const b64 = (data: string | Buffer) => Buffer.from(data).toString('base64url');
const mac = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest();

/** `payload.mac` of a JSON value with an expiry, for the next hop. */
function sign(secret: string, value: object, ttlSeconds: number): string {
  const payload = b64(JSON.stringify({ ...value, exp: Math.floor(Date.now() / 1000) + ttlSeconds }));
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** The value a signed token carries when it is genuine, of the schema's shape and not expired; else null. */
function verify<S extends TSchema & { static: { exp: number } }>(secret: string, token: string | undefined, schema: S): Static<S> | null {
  if (!token) return null;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = mac(secret, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Value.Check(schema, decoded)) return null;
  return (decoded as { exp: number }).exp >= Math.floor(Date.now() / 1000) ? decoded : null;
}

/** Signs an identity for the next hop; it expires after `ttlSeconds`. */
export function signIdentity(secret: string, identity: Unsigned<Identity>, ttlSeconds = IDENTITY_TTL_SECONDS): string {
  return sign(secret, identity, ttlSeconds);
}

/** The gateway's signed word on where a request came from (see `ForwardedClient`). */
export function signForwardedClient(secret: string, client: Omit<ForwardedClient, 'exp'>): string {
  return sign(secret, client, IDENTITY_TTL_SECONDS);
}

export function verifyForwardedClient(secret: string, token: string | undefined): ForwardedClient | null {
  return verify(secret, token, ForwardedClient);
}

/** The identity a token carries, or null when it is forged, malformed or expired. */
export function verifyIdentity(secret: string, token: string | undefined): Identity | null {
  const decoded = verify(secret, token, Identity);
  if (!decoded) return null;
  // Refs come from URLs: a lookup of `constructor` must not find Object.prototype's.
  if (decoded.kind === 'user') decoded.projects = Object.assign(Object.create(null) as Record<string, OrgRole>, decoded.projects);
  return decoded;
}
