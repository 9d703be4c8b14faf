import type { IncomingHttpHeaders } from 'node:http';
import { verifyJwt, type JwtClaims } from '@dash/service-kit';
import { PostgrestError } from '../query/errors';

/** Who a data API request acts as: the database role and the claims policies read through `auth.jwt()`. */
export interface ApiCaller {
  role: string;
  claims: JwtClaims;
  /** A token was given (a 42501 is then a 403, not a 401). */
  authenticated: boolean;
}

/** The token of a request: `Authorization: Bearer` (a user's token or a key) first, else the `apikey` header. */
export function requestToken(headers: IncomingHttpHeaders): string | null {
  const bearer = headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (bearer) return bearer;
  const apikey = Array.isArray(headers.apikey) ? headers.apikey[0] : headers.apikey;
  return apikey && apikey.trim() !== '' ? apikey.trim() : null;
}

export const DataApiMessages = {
  noKey: 'No API key found in request',
  noKeyHint: 'Send the project\'s anon key (or a user\'s access token) as the "apikey" header or as "Authorization: Bearer <token>".',
  noRole: 'JWT has no "role" claim',
} as const;

/**
 * The caller of a request, as PostgREST has it: the token verified with the project's JWT secret, its `role`
 * claim the database role to become. A project's API is called with one of its keys at least (the anon
 * key makes the caller `anon`), as a hosted project's gateway requires: no token at all is a 401.
 * A bad signature or a malformed token is PGRST301, an expired one PGRST303 (both 401).
 */
export function apiCaller(headers: IncomingHttpHeaders, jwtSecret: string): ApiCaller {
  const token = requestToken(headers);
  if (!token) throw new PostgrestError(401, 'PGRST302', DataApiMessages.noKey, null, DataApiMessages.noKeyHint);
  const verified = verifyJwt(jwtSecret, token);
  if ('error' in verified) {
    const expired = verified.error.includes('expired');
    throw new PostgrestError(401, expired ? 'PGRST303' : 'PGRST301', expired ? 'JWT expired' : verified.error.replace(/^Invalid JWT: /, 'JWT invalid: '));
  }
  const role = verified.claims.role;
  if (typeof role !== 'string' || role === '') throw new PostgrestError(401, 'PGRST301', DataApiMessages.noRole);
  return { role, claims: verified.claims, authenticated: role !== 'anon' };
}
