import type { IncomingHttpHeaders } from 'node:http';
import { dataApiCaller, type JwtClaims } from '@dash/service-kit';

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

/** The caller of a request (see the kit's `dataApiCaller`): a refused token is a 401, never downgraded to anon. */
export function graphqlCaller(headers: IncomingHttpHeaders, jwtSecret: string): GraphqlCaller {
  const caller = dataApiCaller(headers, jwtSecret);
  if ('refused' in caller) throw new TokenError(caller.refused.code, caller.refused.message);
  return caller;
}
