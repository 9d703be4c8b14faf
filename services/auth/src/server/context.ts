import type pg from 'pg';
import type { FastifyRequest } from 'fastify';
import { authSettingsRoutes, type AuthHostedConfig, type ProjectAuthSettings } from '@dash/contracts';
import { cachedPerProject, callService, PROJECT_NOT_FOUND, projectRequestToken, verifyJwt, type JwtClaims, type ProjectMailer, type ProjectPools } from '@dash/service-kit';
import { AuthError, AuthMessages } from './errors';
import type { RateLimiter } from './rate-limit';
import type { AuthEvents } from './events';

export type AuthSettingsResolver = (ref: string) => Promise<ProjectAuthSettings>;

/** Read again after this long: a changed setting or a rotated JWT secret applies within a second. */
const SETTINGS_TTL_MS = 1_000;

/** Reads a project's auth settings and JWT secret from the platform service, cached for a second. */
export function platformAuthSettings(platformUrl: string, secret: string): AuthSettingsResolver {
  return cachedPerProject(SETTINGS_TTL_MS, (ref) => callService(platformUrl, secret, 'auth', authSettingsRoutes.projectAuthSettings, { params: { ref }, notFound: PROJECT_NOT_FOUND }));
}

/** What every handler of the auth service shares. */
export interface AuthServiceContext {
  pools: ProjectPools;
  settings: AuthSettingsResolver;
  mailer: ProjectMailer;
  limits: RateLimiter;
  events: AuthEvents;
  /** The browser-facing origin of the gateway (links in emails point at it), e.g. `http://127.0.0.1:8080`. */
  publicUrl: string;
  /** How long a used refresh token may still be exchanged (a client's retry), in seconds. GoTrue's default is 10. */
  refreshReuseIntervalSeconds: number;
}

/** One request to a project's auth API, once its project and key are known. */
export interface AuthRequest {
  ref: string;
  settings: ProjectAuthSettings;
  hosted: AuthHostedConfig;
  pool: pg.Pool;
  /** The client's address as the gateway signed it (the socket's when called directly). */
  ip: string;
  userAgent: string;
  /** `https://.../p/<ref>/auth/v1`: the issuer of the project's tokens and the base of its links. */
  apiUrl: string;
  /** The verified `apikey` (or bearer) token's role: `anon`, `service_role`, `authenticated`. */
  keyRole: string;
}

/** The claims of the `Authorization: Bearer` token, verified with the project's JWT secret; GoTrue's 403 `bad_jwt` otherwise. */
export function bearerClaims(request: FastifyRequest, jwtSecret: string): JwtClaims {
  const bearer = request.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (!bearer) throw new AuthError(401, 'no_authorization', AuthMessages.missingJwt);
  const verified = verifyJwt(jwtSecret, bearer);
  if ('error' in verified) {
    const why = verified.error.includes('expired') ? 'token has invalid claims: token is expired' : 'signature is invalid';
    throw new AuthError(403, 'bad_jwt', AuthMessages.badJwt(why));
  }
  return verified.claims;
}

/**
 * Resolves the project and checks the caller's key, as a hosted project's gateway does before its auth
 * server sees the request: an `apikey` (or a bearer token) signed with the project's JWT secret. The links
 * of emails (`GET /verify`) and OAuth redirects come from a browser without one (`keyless`).
 */
export async function authRequest(ctx: AuthServiceContext, request: FastifyRequest, ref: string, keyless = false): Promise<AuthRequest> {
  const settings = await ctx.settings(ref);
  let keyRole = 'anon';
  if (!keyless) {
    const token = projectRequestToken(request.headers);
    if (!token) throw new AuthError(401, 'no_authorization', AuthMessages.noApiKey);
    const apikey = Array.isArray(request.headers.apikey) ? request.headers.apikey[0] : request.headers.apikey;
    const verified = verifyJwt(settings.jwtSecret, apikey?.trim() || token);
    if ('error' in verified) throw new AuthError(401, 'no_authorization', AuthMessages.invalidApiKey);
    keyRole = typeof verified.claims.role === 'string' ? verified.claims.role : 'anon';
  }
  const userAgent = request.headers['user-agent'];
  return {
    ref,
    settings,
    hosted: settings.hosted,
    pool: await ctx.pools.get(ref),
    ip: request.forwardedClient?.ip ?? request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : '',
    apiUrl: `${ctx.publicUrl}/p/${ref}/auth/v1`,
    keyRole,
  };
}
