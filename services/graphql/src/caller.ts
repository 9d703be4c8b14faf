import type { IncomingHttpHeaders } from 'node:http';
import { verifyJwt, type JwtClaims } from '@dash/service-kit';

/** Who a GraphQL request acts as: the database role and the claims policies read through `auth.uid()` and `auth.jwt()`. */
export interface GraphqlCaller {
  role: string;
  claims: JwtClaims;
}

/** A refused token, answered as the REST data API answers it (PostgREST's error body and codes). */
export class TokenError extends Error {
  readonly status = 401;
  constructor(
    readonly code: 'PGRST301' | 'PGRST302' | 'PGRST303',
    message: string,
  ) {
    super(message);
  }

  toJSON(): { code: string; details: null; hint: null; message: string } {
    return { code: this.code, details: null, hint: null, message: this.message };
  }
}

/** The token of a request: `Authorization: Bearer` (a user's token or a key) first, else the `apikey` header. */
export function requestToken(headers: IncomingHttpHeaders): string | null {
  const bearer = headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (bearer) return bearer;
  const apikey = Array.isArray(headers.apikey) ? headers.apikey[0] : headers.apikey;
  return apikey && apikey.trim() !== '' ? apikey.trim() : null;
}

/**
 * The caller of a request: the token verified with the project's JWT secret and its `role` claim the role to
 * become. As with the REST data API, a project's API is called with one of its keys at least (the anon key
 * makes the caller `anon`): no token, a bad or expired one, or one without a role is refused (401), never
 * downgraded to anon.
 */
export function graphqlCaller(headers: IncomingHttpHeaders, jwtSecret: string): GraphqlCaller {
  const token = requestToken(headers);
  if (!token) throw new TokenError('PGRST302', 'No API key found in request');
  const verified = verifyJwt(jwtSecret, token);
  if ('error' in verified) {
    const expired = verified.error.includes('expired');
    throw new TokenError(expired ? 'PGRST303' : 'PGRST301', expired ? 'JWT expired' : verified.error.replace(/^Invalid JWT: /, 'JWT invalid: '));
  }
  const role = verified.claims.role;
  if (typeof role !== 'string' || role === '') throw new TokenError('PGRST301', 'JWT has no "role" claim');
  return { role, claims: verified.claims };
}
