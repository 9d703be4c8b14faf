import { createHash } from 'node:crypto';
import { Value } from '@sinclair/typebox/value';
import { platformRoutes, type CredentialKind, type RouteDef, type RouteReply } from '@dash/contracts';
import { databaseUnavailable, HttpError, signIdentity } from '@dash/service-kit';

export type ResolvedSession = RouteReply<typeof platformRoutes.resolveSession>;

interface Entry {
  value: ResolvedSession | null;
  expiresAt: number;
}

/** A definitive "no such session" is remembered only briefly; platform errors are not remembered at all. */
const NEGATIVE_CACHE_MS = 1000;
const MAX_ENTRIES = 10_000;

/**
 * Resolves session cookies and personal access tokens through the platform's internal route, with a
 * short cache keyed by the sha256 of the token (the token itself is never kept). Concurrent lookups of
 * one token share a call.
 */
export class SessionResolver {
  private readonly cache = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<ResolvedSession | null>>();
  /**
   * How many times each key was invalidated. A lookup that was under way when its session was signed out
   * answers with the session as it was: its result serves the request that asked, but is not remembered.
   */
  private readonly invalidations = new Map<string, number>();
  /** Bumped when a user is forgotten: a lookup under way then may hold that user's old rights, so it is not remembered. */
  private userForgets = 0;

  constructor(
    private readonly platformUrl: string,
    private readonly secret: string,
    private readonly ttlMs: number,
    private readonly timeoutMs = 5000,
  ) {}

  /** The session's user and projects, null for an unknown or expired session; throws HttpError(502) when the platform fails. */
  async resolve(token: string, kind: CredentialKind = 'session'): Promise<ResolvedSession | null> {
    // A hex digest never starts with "pat:", so a cookie and a token never share an entry.
    const key = kind === 'session' ? hashToken(token) : `pat:${hashToken(token)}`;
    const now = Date.now();
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > now) return cached.value;
    if (cached) this.cache.delete(key);

    const generation = this.invalidations.get(key) ?? 0;
    const forgets = this.userForgets;
    let lookup = this.pending.get(key);
    if (!lookup) {
      lookup = this.lookup(token, kind).finally(() => this.pending.delete(key));
      this.pending.set(key, lookup);
    }
    const value = await lookup;
    if ((this.invalidations.get(key) ?? 0) === generation && this.userForgets === forgets) this.remember(key, value);
    return value;
  }

  /** Forgets a session (signed out, or changed): the next request asks the platform again. */
  invalidate(token: string): void {
    const key = hashToken(token);
    this.cache.delete(key);
    this.pending.delete(key);
    if (this.invalidations.size >= MAX_ENTRIES) this.invalidations.clear();
    this.invalidations.set(key, (this.invalidations.get(key) ?? 0) + 1);
  }

  /**
   * Forgets every cached session and access token of a user, whose rights just changed (removed from an
   * organization, given another role, a token revoked): their next request, on any credential, is
   * checked with the platform again.
   */
  forgetUser(userId: string): void {
    this.userForgets += 1;
    for (const [key, entry] of this.cache) if (entry.value?.user.id === userId) this.cache.delete(key);
  }

  private remember(key: string, value: ResolvedSession | null): void {
    if (this.cache.size >= MAX_ENTRIES) {
      const now = Date.now();
      for (const [k, entry] of this.cache) if (entry.expiresAt <= now) this.cache.delete(k);
      if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    }
    this.cache.set(key, { value, expiresAt: Date.now() + (value ? this.ttlMs : NEGATIVE_CACHE_MS) });
  }

  private async lookup(token: string, kind: CredentialKind): Promise<ResolvedSession | null> {
    let response: Response;
    try {
      response = await fetch(`${this.platformUrl}${platformRoutes.resolveSession.url}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-dash-identity': signIdentity(this.secret, { kind: 'service', sub: 'gateway' }),
        },
        body: JSON.stringify({ token, kind }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw new HttpError(502, 'The platform service is unavailable: the session could not be checked');
    }
    // 400: a token the platform will never accept (e.g. too long); 401: unknown or expired.
    if (response.status === 400 || response.status === 401) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      await response.body?.cancel();
      // The platform's database is restarting: a 503 the client may retry, not a broken gateway.
      if (response.status === 503) throw databaseUnavailable();
      throw new HttpError(502, `The platform service answered ${response.status} while checking the session`);
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (!Value.Check(platformRoutes.resolveSession.response, body)) {
      throw new HttpError(502, 'The platform service returned an invalid session');
    }
    return body;
  }
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The token of an `Authorization: Bearer <token>` header, if the request has one. */
export function bearerToken(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers.authorization;
  return (Array.isArray(value) ? value[0] : value)?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

/** Whether the session still waits for its MFA code: its user needs aal2 and it has not reached it. */
export const awaitingMfa = (session: ResolvedSession): boolean => session.aal === 'aal1' && session.nextLevel === 'aal2';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The path parameters of `METHOD path` when it is one of the contract routes, else null; a `:param` matches one path segment. */
export function routeParamsMatcher(defs: readonly RouteDef[]): (method: string, path: string) => Record<string, string> | null {
  const patterns = defs.map((def) => {
    const path = def.url
      .split(/(:[A-Za-z_][A-Za-z0-9_]*)/)
      .map((part) => (part.startsWith(':') ? `(?<${part.slice(1)}>[^/]+)` : escapeRegExp(part)))
      .join('');
    return { method: def.method, path: new RegExp(`^${path}$`) };
  });
  return (method, path) => {
    for (const p of patterns) {
      const match = p.method === method ? p.path.exec(path) : null;
      if (match) return { ...match.groups };
    }
    return null;
  };
}

/** A test of `METHOD path` against contract routes. */
export function routeMatcher(defs: readonly RouteDef[]): (method: string, path: string) => boolean {
  const params = routeParamsMatcher(defs);
  return (method, path) => params(method, path) !== null;
}

/** A freshly signed user identity for one forwarded request, saying which credential it came with (session-only routes refuse tokens). */
export function userIdentityHeader(secret: string, session: ResolvedSession, credential: CredentialKind): string {
  return signIdentity(secret, { kind: 'user', sub: session.user.id, email: session.user.email, projects: session.projects, credential });
}
