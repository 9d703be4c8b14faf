import type { IncomingHttpHeaders } from 'node:http';
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

/** The token of a project API request: `Authorization: Bearer` (a user's token or a key) first, else the `apikey` header. */
export function projectRequestToken(headers: IncomingHttpHeaders): string | null {
  const bearer = headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (bearer) return bearer;
  const apikey = Array.isArray(headers.apikey) ? headers.apikey[0] : headers.apikey;
  return apikey && apikey.trim() !== '' ? apikey.trim() : null;
}

/** Why a data API request's token is refused, in PostgREST's codes (each a 401). */
export interface DataApiTokenRefusal {
  code: 'PGRST301' | 'PGRST302' | 'PGRST303';
  message: string;
  hint: string | null;
}

export const DataApiTokenMessages = {
  noKey: 'No API key found in request',
  noKeyHint: 'Send the project\'s anon key (or a user\'s access token) as the "apikey" header or as "Authorization: Bearer <token>".',
  noRole: 'JWT has no "role" claim',
  expired: 'JWT expired',
} as const;

/**
 * The caller of a data API request (REST or GraphQL), as PostgREST has it: the token verified with the project's
 * JWT secret and its `role` claim the database role to become. A project's API is called with one of its keys
 * at least (the anon key makes the caller `anon`), as a hosted project's gateway requires: no token is
 * PGRST302, a bad signature, a malformed token or one without a role PGRST301, an expired one PGRST303.
 */
export function dataApiCaller(headers: IncomingHttpHeaders, jwtSecret: string): { role: string; claims: JwtClaims } | { refused: DataApiTokenRefusal } {
  const token = projectRequestToken(headers);
  if (!token) return { refused: { code: 'PGRST302', message: DataApiTokenMessages.noKey, hint: DataApiTokenMessages.noKeyHint } };
  const verified = verifyJwt(jwtSecret, token);
  if ('error' in verified) {
    const expired = verified.error.includes('expired');
    return { refused: { code: expired ? 'PGRST303' : 'PGRST301', message: expired ? DataApiTokenMessages.expired : verified.error.replace(/^Invalid JWT: /, 'JWT invalid: '), hint: null } };
  }
  const role = verified.claims.role;
  if (typeof role !== 'string' || role === '') return { refused: { code: 'PGRST301', message: DataApiTokenMessages.noRole, hint: null } };
  return { role, claims: verified.claims };
}
