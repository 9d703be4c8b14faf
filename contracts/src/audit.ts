import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, Ok, Timestamp } from './route';
import { access } from './permissions';
import { OrgSlugParams } from './organizations';

/**
 * What the audit log records. Each service writes the events of the changes it makes (the platform its
 * own; storage and pg-meta through the platform's internal audit route), so the log is not a UI guess.
 */
export const AUDIT_ACTIONS = [
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'invitation.revoked',
  'organization.renamed',
  'project.created',
  'project.paused',
  'project.restored',
  'project.deleted',
  'project.renamed',
  'project.jwt_secret_rotated',
  'project.database_password_reset',
  'project.auth_config_updated',
  'project.data_api_settings_updated',
  'project.secret_created',
  'project.secret_deleted',
  'project.secret_revealed',
  'project.addon_selected',
  'project.addon_removed',
  'backup.created',
  'backup.downloaded',
  'backup.restored',
  'token.created',
  'token.revoked',
  'mfa.enrolled',
  'mfa.removed',
  'oauth_app.created',
  'oauth_app.deleted',
  'bucket.created',
  'bucket.updated',
  'bucket.emptied',
  'bucket.deleted',
  'policy.created',
  'policy.updated',
  'policy.deleted',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AuditActionSchema = Type.Union(AUDIT_ACTIONS.map((a) => Type.Literal(a)));

export const AuditEvent = Type.Object({
  id: Type.String(),
  action: AuditActionSchema,
  /** Who did it: null for the platform itself (e.g. a project that finished coming up). */
  actor_id: Type.Union([Type.String(), Type.Null()]),
  actor_email: Type.Union([Type.String(), Type.Null()]),
  organization_slug: Type.Union([Type.String(), Type.Null()]),
  project_ref: Type.Union([Type.String(), Type.Null()]),
  /** What was changed, in the product's words (an email, a bucket id, `public.orders: Allow reads`). */
  target: Type.String(),
  details: Type.Record(Type.String(), Type.Unknown()),
  created_at: Timestamp,
});
export type AuditEvent = Static<typeof AuditEvent>;

// ---------------------------------------------------------------------------------------------
// Reading and recording the log.
// ---------------------------------------------------------------------------------------------

export const AUDIT_PAGE_SIZE = 50;

/** Newest first; `before` is the `id` of the last event of the previous page. */
export const AuditListQuery = Type.Object({
  before: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: AUDIT_PAGE_SIZE })),
});
export const AuditPage = Type.Object({
  events: Type.Array(AuditEvent),
  /** The `before` of the next page; null on the last one. */
  next_before: Type.Union([Type.String(), Type.Null()]),
});
export type AuditPage = Static<typeof AuditPage>;

/** What another service reports of a change it made in a project. */
export const AuditRecordInput = Type.Object(
  {
    action: AuditActionSchema,
    actor: Type.Union([Type.Object({ id: Type.String({ format: 'uuid' }), email: Type.String({ maxLength: 320 }) }), Type.Null()]),
    project_ref: Type.String({ pattern: '^[a-z0-9-]{1,64}$' }),
    target: Type.String({ minLength: 1, maxLength: 1000 }),
    details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);
export type AuditRecordInput = Static<typeof AuditRecordInput>;

export const auditRoutes = {
  /** Owners and administrators (`OrgPermission.AuditRead`): every event of the organization and its projects. */
  listOrganizationAudit: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/organizations/:slug/audit',
    params: OrgSlugParams,
    querystring: AuditListQuery,
    response: AuditPage,
    access: access.signedIn,
  }),
  /** The signed-in user's own actions, in every organization. */
  listAccountAudit: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/account/audit',
    querystring: AuditListQuery,
    response: AuditPage,
    access: access.signedIn,
  }),
  /** Storage and pg-meta record their changes here, after the change has committed. */
  recordAudit: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/internal/audit',
    body: AuditRecordInput,
    response: Ok,
    status: 201,
    access: access.internal,
  }),
};
