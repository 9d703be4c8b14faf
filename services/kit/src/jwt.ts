import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HS256 JSON Web Tokens, as a project's API keys and user tokens are: the same format Supabase clients
 * send in `Authorization: Bearer` and `apikey`. Only HS256 is accepted; `alg: none` and others are refused.
 */
export interface JwtClaims {
  role?: string;
  sub?: string;
  exp?: number;
  iat?: number;
  [claim: string]: unknown;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const sign = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest();

export function signJwt(secret: string, claims: JwtClaims): string {
  const payload = Buffer.from(JSON.stringify({ iat: Math.floor(Date.now() / 1000), ...claims })).toString('base64url');
  return `${HEADER}.${payload}.${sign(secret, `${HEADER}.${payload}`).toString('base64url')}`;
}

/** Why a token is refused, or its claims. An expired token is refused; one without `exp` never expires. */
export function verifyJwt(secret: string, token: string): { claims: JwtClaims } | { error: string } {
  const parts = token.split('.');
  if (parts.length !== 3) return { error: 'Invalid JWT: malformed token' };
  const [header, payload, signature] = parts as [string, string, string];
  let alg: unknown;
  let claims: unknown;
  try {
    alg = (JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown }).alg;
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { error: 'Invalid JWT: malformed token' };
  }
  if (alg !== 'HS256') return { error: 'Invalid JWT: only HS256 is accepted' };
  const expected = sign(secret, `${header}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { error: 'Invalid JWT: signature verification failed' };
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return { error: 'Invalid JWT: claims are not an object' };
  const exp = (claims as JwtClaims).exp;
  if (exp !== undefined && (typeof exp !== 'number' || exp < Math.floor(Date.now() / 1000))) return { error: 'Invalid JWT: token has expired' };
  return { claims: claims as JwtClaims };
}
