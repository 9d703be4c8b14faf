import { createHmac, timingSafeEqual } from 'node:crypto';
import { Value } from '@sinclair/typebox/value';
import { Identity, IDENTITY_TTL_SECONDS, type OrgRole } from '@dash/contracts';

type Unsigned<T> = T extends unknown ? Omit<T, 'exp'> : never;

const b64 = (data: string | Buffer) => Buffer.from(data).toString('base64url');
const mac = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest();

/** Signs an identity for the next hop; it expires after `ttlSeconds`. */
export function signIdentity(secret: string, identity: Unsigned<Identity>, ttlSeconds = IDENTITY_TTL_SECONDS): string {
  const payload = b64(JSON.stringify({ ...identity, exp: Math.floor(Date.now() / 1000) + ttlSeconds }));
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** The identity a token carries, or null when it is forged, malformed or expired. */
export function verifyIdentity(secret: string, token: string | undefined): Identity | null {
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
  if (!Value.Check(Identity, decoded)) return null;
  if (decoded.exp < Math.floor(Date.now() / 1000)) return null;
  // Refs come from URLs: a lookup of `constructor` must not find Object.prototype's.
  if (decoded.kind === 'user') decoded.projects = Object.assign(Object.create(null) as Record<string, OrgRole>, decoded.projects);
  return decoded;
}
