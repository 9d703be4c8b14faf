import type { Kysely } from 'kysely';
import type { AuditAction } from '@dash/contracts';
import type { Database } from './db/schema';

export interface AuditEntry {
  action: AuditAction;
  /** The user who made the change; null for the platform itself. */
  actor: { id: string; email: string } | null;
  /** The organization it belongs to (by id; the slug is kept as it was then). */
  org?: { id: number; slug: string } | null;
  projectRef?: string | null;
  target: string;
  details?: Record<string, unknown>;
}

/**
 * Appends one audit event. Call it with the transaction that makes the change, so a change and its
 * record land together or not at all.
 */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      action: entry.action,
      actor_id: entry.actor?.id ?? null,
      actor_email: entry.actor?.email ?? null,
      org_id: entry.org?.id ?? null,
      organization_slug: entry.org?.slug ?? null,
      project_ref: entry.projectRef ?? null,
      target: entry.target,
      details: JSON.stringify(entry.details ?? {}) as unknown as Record<string, unknown>,
    })
    .execute();
}
