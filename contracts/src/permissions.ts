/**
 * Permission names are the gates the spec names (section 6 of each document). Roles are an org
 * member's role; each maps to the set of permissions below. Services check these on every route;
 * the UI uses the same map only to disable buttons as a courtesy.
 */
export const Permission = {
  /** View tables, columns, schemas, policies and roles. */
  TenantSqlAdminRead: 'tenant_sql_admin_read',
  /** Create or change tables, columns, rows, policies, row-level security and roles. */
  TenantSqlAdminWrite: 'tenant_sql_admin_write',
  /** Run SQL in the SQL editor. */
  TenantSqlQuery: 'tenant_sql_query',
  /** The logs explorer and log pages. */
  AnalyticsRead: 'analytics_read',
  /** Save, share and duplicate SQL snippets (user content of type sql). */
  UserContentSqlCreate: 'user_content_sql_create',
  /** Create, edit, empty and delete buckets; upload, move, rename and delete files; storage settings. */
  StorageAdminWrite: 'storage_admin_write',
  /** The invoices item of the organization menu. */
  BillingInvoicesRead: 'billing_invoices_read',
  /**
   * Create projects in the organization; rename, pause, restore and delete them; rotate a project's JWT
   * secret, reset its database password and choose its add-ons (owners and administrators).
   */
  ProjectAdminWrite: 'project_admin_write',
  /** Open the storage area (menu gate). */
  ProjectStorageAll: 'project_storage_all',
  /** Open the authentication area (menu gate). */
  ProjectAuthAll: 'project_auth_all',
  /** Open the realtime area (menu gate). */
  RealtimeAll: 'realtime_all',
  /** Open the edge functions area (menu gate). */
  ProjectEdgeFunctionAll: 'project_edge_function_all',
} as const;
export type PermissionName = (typeof Permission)[keyof typeof Permission];
export const ALL_PERMISSIONS: readonly PermissionName[] = Object.values(Permission);

export const ROLES = ['owner', 'administrator', 'developer', 'read_only'] as const;
export type OrgRole = (typeof ROLES)[number];

export const ROLE_LABELS: Record<OrgRole, string> = {
  owner: 'Owner',
  administrator: 'Administrator',
  developer: 'Developer',
  read_only: 'Read-only',
};

const READ_ONLY: readonly PermissionName[] = [
  Permission.TenantSqlAdminRead,
  Permission.AnalyticsRead,
  Permission.ProjectStorageAll,
  Permission.ProjectAuthAll,
  Permission.RealtimeAll,
  Permission.ProjectEdgeFunctionAll,
];

export const ROLE_PERMISSIONS: Record<OrgRole, readonly PermissionName[]> = {
  owner: ALL_PERMISSIONS,
  administrator: ALL_PERMISSIONS,
  developer: ALL_PERMISSIONS.filter((p) => p !== Permission.BillingInvoicesRead && p !== Permission.ProjectAdminWrite),
  read_only: READ_ONLY,
};

export function roleHasPermission(role: OrgRole | undefined, permission: PermissionName): boolean {
  return role !== undefined && Object.hasOwn(ROLE_PERMISSIONS, role) && ROLE_PERMISSIONS[role].includes(permission);
}

/**
 * A member's role in a project, from a map of project ref → role. Refs come from URLs, so only the map's
 * own keys count: `constructor` or `__proto__` must not find Object.prototype's properties.
 */
export function projectRole(projects: Readonly<Record<string, OrgRole>>, ref: string): OrgRole | undefined {
  return Object.hasOwn(projects, ref) ? projects[ref] : undefined;
}

/**
 * Who may call a route: anyone (`public`), any signed-in user (`signed_in`; with `sessionOnly`, only
 * through a browser session, never a personal access token: a token must not mint or revoke tokens or
 * change how its user signs in, or a leaked one could outlive its revocation), another service of the
 * platform (`internal`), a member of the route's project (`:ref`) holding a permission, or an app
 * holding one of the project's API keys or a user JWT signed with the project's secret (`project_key`:
 * the service owning the route verifies the token, and the database role it names decides the rest).
 */
export type AccessRule =
  | { kind: 'public' }
  | { kind: 'signed_in'; sessionOnly?: true }
  | { kind: 'internal' }
  | { kind: 'project'; permission: PermissionName }
  | { kind: 'project_key' };

export const access = {
  public: { kind: 'public' } as AccessRule,
  signedIn: { kind: 'signed_in' } as AccessRule,
  /** Signed in through a browser session: a personal access token is refused (403). */
  sessionOnly: { kind: 'signed_in', sessionOnly: true } as AccessRule,
  internal: { kind: 'internal' } as AccessRule,
  project: (permission: PermissionName): AccessRule => ({ kind: 'project', permission }),
  projectKey: { kind: 'project_key' } as AccessRule,
};
