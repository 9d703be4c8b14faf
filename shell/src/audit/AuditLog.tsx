import { useState, type ReactNode } from 'react';
import { errorMessage } from '@dash/shell-sdk';
import { Button, EmptyState, ErrorPanel, Spinner } from '@dash/shell-sdk/ui';
import { ROLE_LABELS, type AuditAction, type AuditEvent, type AuditPage, type OrgRole } from '@dash/contracts';
import { formatWhen } from '../settings/parts';

/** The audit log's actions as people read them (an action added later shows as its name until labelled). */
export const AUDIT_ACTION_LABELS: Partial<Record<AuditAction, string>> = {
  'member.invited': 'Invited a member',
  'member.joined': 'Joined the organization',
  'member.role_changed': 'Changed a role',
  'member.removed': 'Removed a member',
  'invitation.revoked': 'Revoked an invitation',
  'organization.renamed': 'Renamed the organization',
  'project.created': 'Created a project',
  'project.paused': 'Paused a project',
  'project.restored': 'Restored a project',
  'project.deleted': 'Deleted a project',
  'project.renamed': 'Renamed a project',
  'project.jwt_secret_rotated': 'Rotated the JWT secret',
  'project.database_password_reset': 'Reset the database password',
  'project.auth_config_updated': 'Changed the auth settings',
  'project.data_api_settings_updated': 'Changed the data API settings',
  'project.secret_created': 'Created a secret',
  'project.secret_deleted': 'Deleted a secret',
  'project.secret_revealed': 'Revealed a secret',
  'project.addon_selected': 'Selected an add-on',
  'project.addon_removed': 'Removed an add-on',
  'token.created': 'Created an access token',
  'token.revoked': 'Revoked an access token',
  'mfa.enrolled': 'Enrolled a second factor',
  'mfa.removed': 'Removed a second factor',
  'oauth_app.created': 'Registered an OAuth app',
  'oauth_app.deleted': 'Deleted an OAuth app',
  'bucket.created': 'Created a bucket',
  'bucket.updated': 'Updated a bucket',
  'bucket.emptied': 'Emptied a bucket',
  'bucket.deleted': 'Deleted a bucket',
  'policy.created': 'Created a policy',
  'policy.updated': 'Updated a policy',
  'policy.deleted': 'Deleted a policy',
};

/** Details read best in this order (Postgres keeps JSON keys in its own); the rest follow by name. */
const DETAIL_ORDER = ['from', 'to', 'role'];
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const rank = (key: string) => (DETAIL_ORDER.includes(key) ? DETAIL_ORDER.indexOf(key) : DETAIL_ORDER.length);

function detailValue(value: unknown): string {
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'string' && value in ROLE_LABELS) return ROLE_LABELS[value as OrgRole];
  if (typeof value === 'string' && ISO_TIME.test(value)) return new Date(value).toLocaleString();
  return String(value);
}

/** The details worth a glance (a role change, a bucket's settings), as "key: value" text. */
function detailsText(event: AuditEvent): string {
  return Object.entries(event.details)
    .filter(([, value]) => value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0))
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([key, value]) => `${key.replace(/_/g, ' ')}: ${detailValue(value)}`)
    .join(' · ');
}

type PageQuery = (args: { before?: string }) => { data?: AuditPage; error?: unknown; isFetching: boolean; refetch: () => unknown };

/**
 * The audit log, newest first, a page at a time ("Load older events" asks for the next one). `usePage`
 * is the endpoint's query hook with its fixed arguments already applied.
 */
export function AuditLog({ usePage, label, showOrganization }: { usePage: PageQuery; label: string; showOrganization?: boolean }) {
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  return (
    <div className="dash-card org-table-card">
      <table className="dash-table org-audit" aria-label={label}>
        <thead>
          <tr>
            <th>Time</th>
            <th>Who</th>
            <th>Action</th>
            <th>What</th>
            <th>{showOrganization ? 'Organization / project' : 'Project'}</th>
          </tr>
        </thead>
        {cursors.map((before, index) => (
          <AuditRows
            key={before ?? 'first'}
            usePage={usePage}
            before={before}
            showOrganization={showOrganization}
            last={index === cursors.length - 1}
            onMore={(next) => setCursors((all) => [...all, next])}
          />
        ))}
      </table>
    </div>
  );
}

function AuditRows({ usePage, before, showOrganization, last, onMore }: {
  usePage: PageQuery;
  before?: string;
  showOrganization?: boolean;
  last: boolean;
  onMore: (before: string) => void;
}) {
  const page = usePage({ before });
  const full = (content: ReactNode) => (
    <tbody>
      <tr>
        <td colSpan={5}>{content}</td>
      </tr>
    </tbody>
  );
  if (page.error) return full(<ErrorPanel title="Failed to load the audit log" message={errorMessage(page.error)} onRetry={() => void page.refetch()} />);
  if (!page.data) return full(<Spinner label="Loading events" />);
  if (page.data.events.length === 0 && before === undefined) return full(<EmptyState title="No events yet" description="Changes to members, projects, tokens, buckets and policies appear here." />);
  const next = page.data.next_before;
  return (
    <tbody>
      {page.data.events.map((event) => (
        <tr key={event.id}>
          <td className="org-muted org-nowrap">{formatWhen(event.created_at, '')}</td>
          <td>{event.actor_email ?? <span className="org-muted">{event.details.via === 'storage_api' ? `API key (${String(event.details.role)})` : 'The platform'}</span>}</td>
          <td>{AUDIT_ACTION_LABELS[event.action] ?? event.action}</td>
          <td>
            <div>{event.target}</div>
            {detailsText(event) && <div className="org-muted org-audit__details">{detailsText(event)}</div>}
          </td>
          <td className="org-muted">{[showOrganization ? event.organization_slug : null, event.project_ref].filter(Boolean).join(' / ') || '—'}</td>
        </tr>
      ))}
      {last && next && (
        <tr>
          <td colSpan={5} className="org-audit__more">
            <Button size="sm" onClick={() => onMore(next)}>
              Load older events
            </Button>
          </td>
        </tr>
      )}
    </tbody>
  );
}
