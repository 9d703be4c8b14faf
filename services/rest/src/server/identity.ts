import type { IncomingHttpHeaders } from 'node:http';
import { dataApiCaller, type JwtClaims } from '@dash/service-kit';
import { PostgrestError } from '../query/errors';

/** Who a data API request acts as: the database role and the claims policies read through `auth.jwt()`. */
export interface ApiCaller {
  role: string;
  claims: JwtClaims;
  /** Not anon: a 42501 is then a 403, not a 401 (PostgREST's rule). */
  authenticated: boolean;
}

/** The caller of a request (see the kit's `dataApiCaller`); a refused token is PostgREST's 401. */
export function apiCaller(headers: IncomingHttpHeaders, jwtSecret: string): ApiCaller {
  const caller = dataApiCaller(headers, jwtSecret);
  if ('refused' in caller) throw new PostgrestError(401, caller.refused.code, caller.refused.message, null, caller.refused.hint);
  return { role: caller.role, claims: caller.claims, authenticated: caller.role !== 'anon' };
}
