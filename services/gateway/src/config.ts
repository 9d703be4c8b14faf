import type { ServiceName } from '@dash/contracts';

/** Every service behind the gateway (each is health-checked). */
export const SERVICES: readonly ServiceName[] = ['platform', 'pg-meta', 'storage', 'logs', 'rest', 'graphql', 'mail', 'auth'];
/**
 * The services of the dashboard's own API (`/api/<service>`, with the member's identity). The data API
 * (`rest`, `graphql`) is only a project's API (`/p/<ref>/rest/v1`, `/p/<ref>/graphql/v1`), called with the
 * project's keys; the auth service is both: its auth API at `/p/<ref>/auth/v1`, and the Users page's actions
 * (send a recovery or magic link, revoke sessions) at `/api/auth/<ref>/users/...` for members.
 */
export const DASHBOARD_SERVICES: readonly ServiceName[] = ['platform', 'pg-meta', 'storage', 'logs', 'mail', 'auth'];

export interface GatewayConfig {
  /** HMAC secret of the identities the gateway signs for services. */
  secret: string;
  /** Origin of each service, e.g. `http://127.0.0.1:8091`. */
  upstreams: Record<ServiceName, string>;
  /** The built shell's dist folder; without it only the API, health and registry are served. */
  shellDir?: string;
  /**
   * The browser-facing origin(s), e.g. `http://127.0.0.1:8080`; an unsafe request whose Origin is none
   * of them is refused. The first one is the canonical origin.
   */
  publicOrigin: string | string[];
  logger?: boolean;
  /** How long a resolved session is cached (default 5 s). */
  sessionCacheMs?: number;
  /** How long a project's status (paused, coming up) is cached before its APIs are served (default 2 s). */
  projectStatusCacheMs?: number;
  /** Timeout of each service's health probe (default 2 s). */
  healthTimeoutMs?: number;
  edgeLogs?: {
    /** Flush at least this often (default 1 s). */
    flushIntervalMs?: number;
    /** Flush as soon as this many events wait (default 100). */
    batchSize?: number;
    /** Oldest events are dropped beyond this many waiting (default 10 000). */
    maxBuffered?: number;
  };
}

/** An origin without a trailing slash; throws on anything that is not an http(s) URL. */
export function normalizeOrigin(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${what} must be a URL, got ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${what} must be an http(s) URL, got ${value}`);
  return url.origin;
}

/** The base URL of an upstream: keeps a path prefix if there is one, drops the trailing slash. */
export function normalizeBase(value: string, what: string): string {
  normalizeOrigin(value, what);
  return value.replace(/\/+$/, '');
}
