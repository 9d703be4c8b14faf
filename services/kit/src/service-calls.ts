import type { FastifyBaseLogger } from 'fastify';
import { auditRoutes, dashConfigRoutes, fillPath, IDENTITY_HEADER, ServiceMessages, type AuditRecordInput, type Identity, type RouteDef, type RouteReply } from '@dash/contracts';
import type { FeatureFlagResolver } from './app';
import { HttpError } from './errors';
import { databaseUnavailable } from './connection-errors';
import { signIdentity } from './identity';

/**
 * Calls a route of another service directly (not through the gateway, so `/internal/*` routes too) with a
 * signed service identity. `baseUrl` is that service's origin. A service that does not answer in time,
 * or answers an error, is a 502 for our caller; with `notFound`, its 404 is a 404 with that message (an
 * unknown project, say); its 503 (its database restarting) is a 503.
 */
export async function callService<D extends RouteDef>(
  baseUrl: string,
  secret: string,
  caller: string,
  def: D,
  parts: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown; notFound?: string } = {},
  timeoutMs = 5_000,
): Promise<RouteReply<D>> {
  const url = new URL(fillPath(def.url, parts.params), baseUrl);
  for (const [name, value] of Object.entries(parts.query ?? {})) url.searchParams.set(name, value);
  let response: Response;
  try {
    response = await fetch(url, {
      method: def.method,
      headers: {
        [IDENTITY_HEADER]: signIdentity(secret, { kind: 'service', sub: caller }),
        ...(parts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: parts.body !== undefined ? JSON.stringify(parts.body) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new HttpError(502, `The ${def.service} service did not answer ${def.method} ${def.url}: ${(error as Error).message}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    if (response.status === 404 && parts.notFound) throw new HttpError(404, parts.notFound);
    // Its database is unavailable (restarting): so is ours for this request, and the caller may retry.
    if (response.status === 503) throw databaseUnavailable();
    throw new HttpError(502, `The ${def.service} service answered ${response.status} for ${def.method} ${def.url}`);
  }
  return (await response.json()) as RouteReply<D>;
}

/**
 * A project's settings as another service keeps them, read through `load` at most once per `ttlMs` per
 * project; a failed read is forgotten at once, so the next request asks again.
 */
export function cachedPerProject<T>(ttlMs: number, load: (ref: string) => Promise<T>): (ref: string) => Promise<T> {
  const cache = new Map<string, { at: number; value: Promise<T> }>();
  return (ref) => {
    const hit = cache.get(ref);
    if (hit && Date.now() - hit.at < ttlMs) return hit.value;
    const value = load(ref);
    value.catch(() => cache.delete(ref));
    cache.set(ref, { at: Date.now(), value });
    return value;
  };
}

/** How long a service keeps a project's feature flags: an operator's change reaches it within this. */
export const FEATURE_FLAGS_CACHE_MS = 2_000;

/** A project's feature flags as the platform resolves them (its organization's, the deployment's overrides applied), cached per project. */
export function platformFeatureFlags(platformUrl: string, secret: string, serviceName: string, ttlMs = FEATURE_FLAGS_CACHE_MS): FeatureFlagResolver {
  return cachedPerProject(ttlMs, (ref) =>
    callService(platformUrl, secret, serviceName, dashConfigRoutes.projectFeatureFlags, { params: { ref }, notFound: ServiceMessages.projectNotFound }),
  );
}

/** Records one audit event of a change the service made (see `platformAuditRecorder`). */
export type AuditRecorder = (event: AuditRecordInput) => Promise<void>;

/** The audit log's actor of a request: the signed-in user, or null for a service or an app's key. */
export function auditActor(identity: Identity | null): AuditRecordInput['actor'] {
  return identity?.kind === 'user' ? { id: identity.sub, email: identity.email } : null;
}

/** Records audit events through the platform's internal audit route. */
export function platformAuditRecorder(platformUrl: string, secret: string, serviceName: string): AuditRecorder {
  return async (event) => {
    await callService(platformUrl, secret, serviceName, auditRoutes.recordAudit, { body: event });
  };
}

/**
 * Records the event of a change that has already committed, without making the request wait: a failure to
 * record is logged and never fails the user's request (the change is made, so the reply must say so).
 */
export function recordAfterCommit(recorder: AuditRecorder, log: FastifyBaseLogger, event: AuditRecordInput): void {
  recorder(event).catch((error: unknown) => log.warn({ err: error, action: event.action, target: event.target }, 'the audit event could not be recorded'));
}

/** A readiness check (`ServiceOptions.dependencies`): another service's process answers its `/health/live`. */
export async function serviceAnswers(baseUrl: string): Promise<void> {
  const response = await fetch(new URL('/health/live', baseUrl), { signal: AbortSignal.timeout(1_000) });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`${baseUrl} answered ${response.status}`);
}
