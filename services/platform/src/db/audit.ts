import type { Kysely } from 'kysely';
import type { AuditEvent, AuditPage } from '@dash/contracts';
import type { Database } from './schema';
import { isUserId } from './users';

/** One page of the log, newest first, of an organization or of one actor; `before` is an event id. */
export async function listAuditEvents(
  db: Kysely<Database>,
  filter: { orgId: number } | { actorId: string },
  page: { before?: string; limit: number },
): Promise<AuditPage> {
  if ('actorId' in filter && !isUserId(filter.actorId)) return { events: [], next_before: null };
  let query = db
    .selectFrom('audit_events')
    .select(['id', 'action', 'actor_id', 'actor_email', 'organization_slug', 'project_ref', 'target', 'details', 'created_at'])
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  query = 'orgId' in filter ? query.where('org_id', '=', filter.orgId) : query.where('actor_id', '=', filter.actorId);
  if (page.before !== undefined) query = query.where('id', '<', page.before);
  const rows = await query.execute();
  const events: AuditEvent[] = rows.slice(0, page.limit).map((row) => ({
    id: String(row.id),
    action: row.action,
    actor_id: row.actor_id,
    actor_email: row.actor_email,
    organization_slug: row.organization_slug,
    project_ref: row.project_ref,
    target: row.target,
    details: row.details,
    created_at: row.created_at.toISOString(),
  }));
  return { events, next_before: rows.length > page.limit ? events[events.length - 1]!.id : null };
}
