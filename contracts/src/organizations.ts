import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, Ok, Timestamp } from './route';
import { access, Permission, roleHasPermission, type OrgRole } from './permissions';
import { OrgRoleSchema } from './identity';
import { User } from './platform';

// ---------------------------------------------------------------------------------------------
// Who may do what in an organization. Project permissions (permissions.ts) gate project routes; these
// gate the organization's own pages. Every member reads the organization, its members, invitations,
// OAuth apps, usage and billing; the rest is below. The platform checks them from the members table.
// ---------------------------------------------------------------------------------------------

export const OrgPermission = {
  /** Rename the organization. */
  SettingsWrite: 'org_settings_write',
  /** Invite members, revoke invitations, change roles, remove members (the owner role: owners only). */
  MembersWrite: 'org_members_write',
  /** Register and delete OAuth apps. */
  OAuthAppsWrite: 'org_oauth_apps_write',
  /** Read the organization's audit log. */
  AuditRead: 'org_audit_read',
} as const;
export type OrgPermissionName = (typeof OrgPermission)[keyof typeof OrgPermission];

const ORG_MANAGERS: readonly OrgPermissionName[] = Object.values(OrgPermission);

export const ORG_ROLE_PERMISSIONS: Record<OrgRole, readonly OrgPermissionName[]> = {
  owner: ORG_MANAGERS,
  administrator: ORG_MANAGERS,
  developer: [],
  read_only: [],
};

export function orgRoleCan(role: OrgRole | undefined, permission: OrgPermissionName): boolean {
  return role !== undefined && ORG_ROLE_PERMISSIONS[role].includes(permission);
}

/**
 * Whether `actor` may give someone the role `to` who holds `from` now (null: an invitation). Managers
 * assign roles; only an owner grants the owner role or takes it away.
 */
export function canAssignRole(actor: OrgRole, from: OrgRole | null, to: OrgRole): boolean {
  if (!orgRoleCan(actor, OrgPermission.MembersWrite)) return false;
  return actor === 'owner' || (from !== 'owner' && to !== 'owner');
}

/** Whether `actor` may remove a member whose role is `target`. Anyone may leave (`self`); owners go only by an owner. */
export function canRemoveMember(actor: OrgRole, target: OrgRole, self: boolean): boolean {
  if (self) return true;
  return orgRoleCan(actor, OrgPermission.MembersWrite) && (actor === 'owner' || target !== 'owner');
}

/** The invoices page (spec §2, §6): the billing-invoices permission, and billing that is not via a partner. */
export function canSeeInvoices(role: OrgRole | undefined, billingViaPartner: boolean): boolean {
  return !billingViaPartner && roleHasPermission(role, Permission.BillingInvoicesRead);
}

// ---------------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------------

/** An invitation's accept link works this long. */
export const INVITATION_TTL_DAYS = 7;
export const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000;
/** The shell page that accepts an invitation. */
export const JOIN_PATH = '/join';
export const joinPath = (token: string): string => `${JOIN_PATH}?token=${encodeURIComponent(token)}`;
/** A password chosen when joining without an account. */
export const NEW_ACCOUNT_PASSWORD_MIN = 8;
export const ORGANIZATION_NAME_MAX = 100;
export const OAUTH_APP_NAME_MAX = 100;
export const OAUTH_APP_MAX_REDIRECT_URIS = 10;

// ---------------------------------------------------------------------------------------------
// Prices (hosted only). A statement is one month of an organization: per project the plan's monthly
// fee, then what it used beyond the plan's quota at the overage price per GB (1024³ bytes). Database size and storage
// are the month's last reading; egress is the month's total. Free projects are never charged: above
// the quota they are shown, not billed. Amounts are whole US cents, rounded per line.
// ---------------------------------------------------------------------------------------------

export const PROJECT_PLANS = ['free', 'pro'] as const;
export type ProjectPlanName = (typeof PROJECT_PLANS)[number];
export const ProjectPlanSchema = Type.Union(PROJECT_PLANS.map((p) => Type.Literal(p)));

export const GIB = 1024 ** 3;
export const BILLING_CURRENCY = 'USD';
export const USAGE_METRICS = ['database_bytes', 'storage_bytes', 'egress_bytes'] as const;
export type UsageMetric = (typeof USAGE_METRICS)[number];
export const USAGE_METRIC_LABELS: Record<UsageMetric, string> = {
  database_bytes: 'Database size',
  storage_bytes: 'Storage size',
  egress_bytes: 'Egress',
};

export const PLAN_PRICES: Record<ProjectPlanName, { label: string; monthly_fee_cents: number; included: Record<UsageMetric, number>; billsOverage: boolean }> = {
  free: { label: 'Free', monthly_fee_cents: 0, included: { database_bytes: GIB / 2, storage_bytes: GIB, egress_bytes: 5 * GIB }, billsOverage: false },
  pro: { label: 'Pro', monthly_fee_cents: 2500, included: { database_bytes: 8 * GIB, storage_bytes: 100 * GIB, egress_bytes: 250 * GIB }, billsOverage: true },
};
/** Cents per GB (1024³ bytes, the product's unit) above the plan's quota. */
export const OVERAGE_CENTS_PER_GIB: Record<UsageMetric, number> = { database_bytes: 12.5, storage_bytes: 2.1, egress_bytes: 9 };

// ---------------------------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------------------------

const Slug = Type.String({ pattern: '^[a-z0-9-]{1,64}$' });
export const OrgSlugParams = Type.Object({ slug: Slug });
const Uuid = Type.String({ format: 'uuid' });
const Email = Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' });
const Token = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });

export const OrganizationDetail = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  name: Type.String(),
  /** The caller's role in it. */
  role: OrgRoleSchema,
  /** Billed through a partner marketplace: no invoices here (spec §2). */
  billing_via_partner: Type.Boolean(),
  created_at: Timestamp,
});
export type OrganizationDetail = Static<typeof OrganizationDetail>;

export const OrganizationMember = Type.Object({
  user_id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: OrgRoleSchema,
  joined_at: Timestamp,
});
export type OrganizationMember = Static<typeof OrganizationMember>;

export const Invitation = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: OrgRoleSchema,
  invited_by_email: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  expires_at: Timestamp,
  expired: Type.Boolean(),
});
export type Invitation = Static<typeof Invitation>;

/** What the join page shows to whoever holds the link. */
export const InvitationPreview = Type.Object({
  organization_name: Type.String(),
  organization_slug: Type.String(),
  email: Type.String(),
  role: OrgRoleSchema,
  expires_at: Timestamp,
  /** Whether an account with the invited email exists (sign in to accept) or not (set a name and password). */
  account_exists: Type.Boolean(),
});
export type InvitationPreview = Static<typeof InvitationPreview>;

export const OAuthApp = Type.Object({
  id: Type.String(),
  name: Type.String(),
  client_id: Type.String(),
  redirect_uris: Type.Array(Type.String()),
  created_by_email: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
});
export type OAuthApp = Static<typeof OAuthApp>;

export const ProjectUsage = Type.Object({
  ref: Type.String(),
  name: Type.String(),
  plan: ProjectPlanSchema,
  database_bytes: Type.Integer({ minimum: 0 }),
  storage_bytes: Type.Integer({ minimum: 0 }),
  egress_bytes: Type.Integer({ minimum: 0 }),
});
export type ProjectUsage = Static<typeof ProjectUsage>;

export const InvoiceLine = Type.Object({
  project_ref: Type.String(),
  project_name: Type.String(),
  description: Type.String(),
  /** Months of a plan fee, or GB (1024³ bytes, as the product counts sizes) above the quota. */
  quantity: Type.Number({ minimum: 0 }),
  unit: Type.Union([Type.Literal('month'), Type.Literal('GB')]),
  amount_cents: Type.Integer({ minimum: 0 }),
});
export type InvoiceLine = Static<typeof InvoiceLine>;

export const Invoice = Type.Object({
  /** The month, `YYYY-MM`. */
  id: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$' }),
  period_start: Timestamp,
  period_end: Timestamp,
  /** The current month's statement is `upcoming` (it changes with usage); earlier ones are `issued`. */
  status: Type.Union([Type.Literal('upcoming'), Type.Literal('issued')]),
  currency: Type.Literal(BILLING_CURRENCY),
  lines: Type.Array(InvoiceLine),
  total_cents: Type.Integer({ minimum: 0 }),
});
export type Invoice = Static<typeof Invoice>;

/** A statement's lines from a month's usage, with the price table above. */
export function invoiceLines(projects: readonly ProjectUsage[]): InvoiceLine[] {
  const lines: InvoiceLine[] = [];
  for (const project of projects) {
    const price = PLAN_PRICES[project.plan];
    const base = { project_ref: project.ref, project_name: project.name };
    lines.push({ ...base, description: `${price.label} plan`, quantity: 1, unit: 'month', amount_cents: price.monthly_fee_cents });
    if (!price.billsOverage) continue;
    for (const metric of USAGE_METRICS) {
      const over = project[metric] - price.included[metric];
      if (over <= 0) continue;
      const gib = over / GIB;
      lines.push({
        ...base,
        description: `${USAGE_METRIC_LABELS[metric]} over ${price.included[metric] / GIB} GB`,
        quantity: Math.round(gib * 1000) / 1000,
        unit: 'GB',
        amount_cents: Math.round(gib * OVERAGE_CENTS_PER_GIB[metric]),
      });
    }
  }
  return lines;
}

export const OrganizationMessages = {
  organizationNotFound: 'Organization not found',
  nameRequired: 'Please provide a name for your organization',
  organizationRenamed: 'Organization name updated',
  memberNotFound: 'Member not found',
  lastOwner: 'An organization needs at least one owner: make another member an owner first',
  ownerRoleOwnersOnly: 'Only an owner can grant or remove the owner role',
  alreadyMember: (email: string) => `${email} is already a member of this organization`,
  invitationNotFound: 'Invitation not found',
  invitationInvalid: 'This invitation is invalid or has expired. Ask for a new one.',
  invitationForAnotherEmail: (email: string) => `This invitation is for ${email}. Sign in with that email to accept it.`,
  accountExists: (email: string) => `An account for ${email} already exists. Sign in to accept the invitation.`,
  nameOfPersonRequired: 'Please enter your name',
  passwordTooShort: `Use a password of at least ${NEW_ACCOUNT_PASSWORD_MIN} characters`,
  invitationSent: (email: string) => `Invitation created for ${email}`,
  oauthAppNotFound: 'OAuth app not found',
  oauthAppNameRequired: 'Please provide a name for your app',
  redirectUriRequired: 'Please provide at least one redirect URI',
  redirectUriInvalid: (uri: string) =>
    `"${uri}" is not a valid redirect URI: use an absolute https:// URL (http:// only for localhost), without a fragment`,
  hostedOnly: 'Billing and usage are only available on the hosted platform',
  invoicesViaPartner: 'This organization is billed through a partner: its invoices come from the partner',
  egressUnavailable: 'Egress could not be read: the logs service did not answer',
  // The organization pages' own texts.
  managersOnly: 'Only owners and administrators of the organization can do this',
  auditManagersOnly: "see this organization's audit log",
  renameFailed: (message: string) => `Failed to rename the organization: ${message}`,
  roleChanged: (email: string, role: string) => `${email} is now ${role}`,
  roleChangeFailed: (message: string) => `Failed to change the role: ${message}`,
  memberRemoved: (email: string) => `Removed ${email} from the organization`,
  leftOrganization: (name: string) => `You left ${name}`,
  removeFailed: (message: string) => `Failed to remove the member: ${message}`,
  inviteFailed: (message: string) => `Failed to invite the member: ${message}`,
  linkShownOnce: `Send this link to the person you invited. It works for ${INVITATION_TTL_DAYS} days, once, and is shown only now.`,
  invitationRevoked: (email: string) => `Revoked the invitation of ${email}`,
  revokeFailed: (message: string) => `Failed to revoke the invitation: ${message}`,
  joined: (name: string) => `You joined ${name}`,
  joinFailed: (message: string) => `Failed to join: ${message}`,
  oauthAppCreateFailed: (message: string) => `Failed to register the app: ${message}`,
  secretShownOnce: 'Copy the client secret now: it is shown only once and cannot be read again.',
  oauthAppDeleted: (name: string) => `Deleted ${name}`,
  oauthAppDeleteFailed: (message: string) => `Failed to delete the app: ${message}`,
  emailInvalid: 'Please enter a valid email address',
  passwordsDiffer: 'The passwords do not match',
} as const;

// ---------------------------------------------------------------------------------------------
// Routes (platform). Access is `signed_in`: the organization role comes from the members table in
// each route, and an organization the caller is not a member of is a 404.
// ---------------------------------------------------------------------------------------------

const MemberParams = Type.Object({ slug: Slug, userId: Uuid });
const IdParams = Type.Object({ slug: Slug, id: Uuid });

export const organizationRoutes = {
  getOrganization: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/organizations/:slug',
    params: OrgSlugParams,
    response: OrganizationDetail,
    access: access.signedIn,
  }),
  /** Owners and administrators. */
  updateOrganization: defineRoute({
    service: 'platform',
    method: 'PATCH',
    url: '/organizations/:slug',
    params: OrgSlugParams,
    body: Type.Object({ name: Type.String({ maxLength: ORGANIZATION_NAME_MAX }) }, { additionalProperties: false }),
    response: OrganizationDetail,
    access: access.signedIn,
  }),
  listMembers: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/organizations/:slug/members',
    params: OrgSlugParams,
    response: Type.Object({ members: Type.Array(OrganizationMember) }),
    access: access.signedIn,
  }),
  /** See `canAssignRole`; the last owner keeps the role (409). */
  updateMember: defineRoute({
    service: 'platform',
    method: 'PATCH',
    url: '/organizations/:slug/members/:userId',
    params: MemberParams,
    body: Type.Object({ role: OrgRoleSchema }, { additionalProperties: false }),
    response: OrganizationMember,
    access: access.signedIn,
  }),
  /** See `canRemoveMember`; the last owner stays (409). */
  removeMember: defineRoute({
    service: 'platform',
    method: 'DELETE',
    url: '/organizations/:slug/members/:userId',
    params: MemberParams,
    response: Ok,
    access: access.signedIn,
  }),
  listInvitations: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/organizations/:slug/invitations',
    params: OrgSlugParams,
    response: Type.Object({ invitations: Type.Array(Invitation) }),
    access: access.signedIn,
  }),
  /**
   * Replaces any pending invitation of the same email. The reply's `accept_path` (`/join?token=…`) is the
   * only time the token is shown: only its hash is kept.
   */
  createInvitation: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/organizations/:slug/invitations',
    params: OrgSlugParams,
    body: Type.Object({ email: Email, role: OrgRoleSchema }, { additionalProperties: false }),
    response: Type.Object({ invitation: Invitation, accept_path: Type.String() }),
    status: 201,
    access: access.signedIn,
  }),
  revokeInvitation: defineRoute({
    service: 'platform',
    method: 'DELETE',
    url: '/organizations/:slug/invitations/:id',
    params: IdParams,
    response: Ok,
    access: access.signedIn,
  }),
  /** The token travels in the body, never in a logged URL. */
  previewInvitation: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/invitations/preview',
    body: Token,
    response: InvitationPreview,
    access: access.public,
  }),
  /** The signed-in user whose email the invitation names joins with its role. */
  acceptInvitation: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/invitations/accept',
    body: Token,
    response: Type.Object({ organization_slug: Type.String() }),
    access: access.signedIn,
  }),
  /** For an email with no account: creates the account, joins and signs in (sets the session cookie). */
  signUpWithInvitation: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/invitations/sign-up',
    body: Type.Object(
      {
        token: Type.String({ minLength: 1, maxLength: 200 }),
        name: Type.String({ maxLength: 100 }),
        password: Type.String({ maxLength: 1024 }),
      },
      { additionalProperties: false },
    ),
    response: Type.Object({ user: User, organization_slug: Type.String() }),
    status: 201,
    access: access.public,
  }),
  listOAuthApps: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/organizations/:slug/oauth-apps',
    params: OrgSlugParams,
    response: Type.Object({ apps: Type.Array(OAuthApp) }),
    access: access.signedIn,
  }),
  /** The reply's `client_secret` is the only time it is shown: only its hash is kept. */
  createOAuthApp: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/organizations/:slug/oauth-apps',
    params: OrgSlugParams,
    body: Type.Object(
      {
        name: Type.String({ maxLength: OAUTH_APP_NAME_MAX }),
        redirect_uris: Type.Array(Type.String({ maxLength: 2000 }), { maxItems: OAUTH_APP_MAX_REDIRECT_URIS }),
      },
      { additionalProperties: false },
    ),
    response: Type.Object({ app: OAuthApp, client_secret: Type.String() }),
    status: 201,
    access: access.signedIn,
  }),
  deleteOAuthApp: defineRoute({
    service: 'platform',
    method: 'DELETE',
    url: '/organizations/:slug/oauth-apps/:id',
    params: IdParams,
    response: Ok,
    access: access.signedIn,
  }),
  /** This month's usage per project (hosted only): database size, storage bytes, egress. */
  getUsage: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/organizations/:slug/usage',
    params: OrgSlugParams,
    querystring: Type.Object({ projectRef: Type.Optional(Type.String({ pattern: '^[a-z0-9-]{1,64}$' })) }),
    response: Type.Object({ period_start: Timestamp, period_end: Timestamp, projects: Type.Array(ProjectUsage) }),
    access: access.signedIn,
  }),
  /** Hosted only; `canSeeInvoices`. The newest month first. */
  listInvoices: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/organizations/:slug/invoices',
    params: OrgSlugParams,
    response: Type.Object({ invoices: Type.Array(Invoice) }),
    access: access.signedIn,
  }),
};

/** The logs service's part of usage: response bytes of the edge events per project, in a time range. */
export const usageLogsRoutes = {
  egress: defineRoute({
    service: 'logs',
    method: 'POST',
    url: '/internal/usage/egress',
    body: Type.Object(
      {
        from: Timestamp,
        to: Timestamp,
        refs: Type.Array(Type.String({ pattern: '^[a-z0-9-]{1,64}$' }), { maxItems: 1000 }),
      },
      { additionalProperties: false },
    ),
    /** Every asked ref, 0 where nothing was served. */
    response: Type.Object({ projects: Type.Array(Type.Object({ ref: Type.String(), egress_bytes: Type.Integer({ minimum: 0 }) })) }),
    access: access.internal,
  }),
};
