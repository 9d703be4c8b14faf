import type { FastifyRequest } from 'fastify';
import { auditActor, recordAfterCommit } from '@dash/service-kit';
import type { AuditAction } from '@dash/contracts';
import type { StorageContext } from './app';

/**
 * Records a bucket change in the platform's audit log once it has committed (a failure to record is
 * logged, never the request's failure). From the dashboard the actor is the member; through the storage
 * API it is the app's key, named by its database role (and the user's id for a user's JWT).
 */
export function recordBucketChange(
  ctx: StorageContext,
  request: FastifyRequest,
  change: { action: AuditAction; ref: string; bucketId: string; details?: Record<string, unknown> },
): void {
  const key = request.projectKeyCaller;
  const via = key ? { via: 'storage_api', role: key.role, ...(typeof key.claims.sub === 'string' ? { sub: key.claims.sub } : {}) } : {};
  recordAfterCommit(ctx.audit, request.log, {
    action: change.action,
    actor: auditActor(request.identity),
    project_ref: change.ref,
    target: change.bucketId,
    details: { ...change.details, ...via },
  });
}
