import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthAuditAction, LogEventInput, LogMetadata } from '@dash/contracts';
import { shipRequestEvents, type LogShipper, type ServiceApp } from '@dash/service-kit';
import type { Queryable } from '../users/store';

/** Who an event is about: GoTrue's actor. */
export interface AuditActor {
  id: string;
  email: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The audit action this request did, for its auth_logs event. */
    authAudit: { action: AuthAuditAction; actor: AuditActor | null } | null;
  }
}

const MAX_PATH = 2000;

/**
 * The auth service's two records of what happened: GoTrue's audit trail in the project's
 * `auth.audit_log_entries` (written in the same transaction as the change it records), and one auth_logs
 * event per request for the project's logs pages (shipped after the answer, never delaying it).
 */
export class AuthEvents {
  constructor(private readonly shipper: LogShipper | undefined) {}

  register(app: ServiceApp): void {
    app.decorateRequest('authAudit', null);
    shipRequestEvents(app, this.shipper, authLogEvent);
  }

  /** Writes an audit row and marks the request with its action (its auth_logs event says it). */
  async audit(db: Queryable, request: FastifyRequest, ip: string, action: AuthAuditAction, actor: AuditActor | null, traits: Record<string, unknown> = {}): Promise<void> {
    request.authAudit = { action, actor };
    const payload = { action, actor_id: actor?.id ?? '', actor_username: actor?.email ?? '', actor_via_sso: false, log_type: logTypeOf(action), traits };
    await db.query('insert into auth.audit_log_entries (id, payload, created_at, ip_address) values ($1, $2, now(), $3)', [randomUUID(), JSON.stringify(payload), ip.slice(0, 64)]);
  }
}

/** GoTrue's audit log types. */
function logTypeOf(action: AuthAuditAction): string {
  if (action === 'login' || action === 'logout' || action === 'login_failed') return 'account';
  if (action === 'token_refreshed' || action === 'token_revoked') return 'token';
  if (action.startsWith('factor') || action === 'challenge_created' || action === 'verification_attempted' || action === 'generate_recovery_codes') return 'factor';
  return 'user';
}

/** The auth_logs event of one request to a project's auth API (`/:ref/v1/...`); null for others (health). */
export function authLogEvent(request: FastifyRequest, reply: FastifyReply): LogEventInput | null {
  const ref = (request.params as { ref?: unknown } | undefined)?.ref;
  if (typeof ref !== 'string' || !request.routeOptions.url?.startsWith('/:ref/v1')) return null;
  const raw = request.raw.url ?? request.url;
  // The path as the app called it (`/auth/v1/token`), without the query (it may hold a token).
  const path = `/auth${raw.split('?')[0]!.slice(ref.length + 1)}`.slice(0, MAX_PATH);
  const status = reply.statusCode;
  const audit = request.authAudit;
  const metadata: LogMetadata['auth'] = {
    action: audit?.action ?? null,
    status,
    user_email: audit?.actor?.email ?? null,
    user_id: audit?.actor?.id ?? null,
    ip: request.forwardedClient?.ip ?? request.ip,
    level: status >= 500 ? 'error' : status >= 400 ? 'warning' : 'info',
    method: request.method,
    path,
    duration_ms: Math.round(reply.elapsedTime * 100) / 100,
  };
  return {
    source: 'auth',
    project_ref: ref,
    timestamp: new Date(Date.now() - reply.elapsedTime).toISOString(),
    // The action and the user's address lead the message, so the logs' search finds a user's events by email.
    event_message: `${audit ? `${audit.action}${audit.actor?.email ? ` ${audit.actor.email}` : ''}: ` : ''}${request.method} ${path} ${status}`,
    metadata,
  };
}
