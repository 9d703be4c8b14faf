import type {
  PgColumn,
  PgPolicy,
  PgTable,
  RouteReply,
  pgMetaRoutes,
  platformRoutes,
  policiesRoutes,
  rolesRoutes,
  tableEditorRoutes,
} from '@dash/contracts';
import { AUTH_JWT_EXPIRY_DEFAULT_SECONDS, AUTH_SITE_URL_DEFAULT } from '@dash/contracts';
import { bootstrapRoles, pgRole } from '@dash/shell-sdk/testing';

export const schemasReply: RouteReply<typeof pgMetaRoutes.listSchemas> = [
  { id: 2200, name: 'public', owner: 'pg_database_owner' },
  { id: 16390, name: 'sales', owner: 'postgres' },
];

const table = (id: number, name: string, rls: boolean, schema = 'public'): PgTable => ({
  id,
  schema,
  name,
  rls_enabled: rls,
  rls_forced: false,
  replica_identity: 'DEFAULT',
  bytes: 16384,
  size: '16 kB',
  live_rows_estimate: 10,
  dead_rows_estimate: 0,
  comment: null,
  primary_keys: [],
  relationships: [],
});

export const tablesReply: RouteReply<typeof tableEditorRoutes.listTables> = [
  table(16385, 'countries', true),
  table(16392, 'profiles', true),
  table(16398, 'audit_log', false),
];

const policy = (id: number, tableId: number, tableName: string, name: string, command: PgPolicy['command'], roles: string[]): PgPolicy => ({
  id,
  schema: 'public',
  table: tableName,
  table_id: tableId,
  name,
  action: 'PERMISSIVE',
  roles,
  command,
  definition: command === 'INSERT' ? null : 'true',
  check: command === 'INSERT' ? '(auth.uid() = id)' : null,
});

export const policiesReply: RouteReply<typeof pgMetaRoutes.listPolicies> = [
  policy(30001, 16385, 'countries', 'Countries are readable by everyone', 'SELECT', ['anon', 'authenticated', 'service_role', 'editor', 'auditor']),
  policy(30002, 16392, 'profiles', 'Users insert their own profile', 'INSERT', ['authenticated']),
  policy(30003, 16392, 'profiles', 'Profiles are public', 'SELECT', ['public']),
];

/** The database's roles as the service lists them: the spec's hidden ones and the product's own included, for the picker to leave out. */
export const rolesReply: RouteReply<typeof rolesRoutes.listRoles> = [
  ...bootstrapRoles(),
  pgRole(16389, 'pgbouncer', { can_login: true }),
  pgRole(16390, 'supabase_admin', { is_superuser: true, can_login: true }),
  pgRole(16391, 'supabase_auth_admin', { can_login: true }),
  pgRole(16392, 'supabase_storage_admin', { can_login: true }),
  // The project's own connection roles (admin, read-only, storage): login roles that bypass RLS.
  pgRole(16395, 'dash_project_admin', { can_login: true, can_bypass_rls: true, can_create_role: true }),
  pgRole(16396, 'dash_project_storage', { can_login: true, can_bypass_rls: true }),
  pgRole(16393, 'editor'),
  pgRole(16394, 'auditor'),
];

export const authConfigReply = (anonymous: boolean): RouteReply<typeof platformRoutes.getAuthConfig> => ({
  external_anonymous_users_enabled: anonymous,
  site_url: AUTH_SITE_URL_DEFAULT,
  jwt_expiry: AUTH_JWT_EXPIRY_DEFAULT_SECONDS,
});

/** The tables of the protected `auth` schema. */
export const authTablesReply: RouteReply<typeof tableEditorRoutes.listTables> = [table(16500, 'users', true, 'auth')];
export const authPoliciesReply: RouteReply<typeof pgMetaRoutes.listPolicies> = [
  { ...policy(30100, 16500, 'users', 'Users read themselves', 'SELECT', ['authenticated']), schema: 'auth' },
];

const column = (tableId: number, position: number, name: string, format: string, extra: Partial<PgColumn> = {}): PgColumn => ({
  id: `${tableId}.${position}`,
  table_id: tableId,
  schema: 'public',
  table: 'profiles',
  ordinal_position: position,
  name,
  default_value: null,
  data_type: format,
  format,
  is_identity: false,
  identity_generation: null,
  is_generated: false,
  is_nullable: true,
  is_updatable: true,
  is_unique: false,
  enums: [],
  check: null,
  comment: null,
  is_encrypted: false,
  ...extra,
});

/** The columns of `profiles`: an identity id the sample row cannot set, a user id and a name. */
export const profileColumnsReply: RouteReply<typeof tableEditorRoutes.listColumns> = [
  column(16392, 1, 'id', 'int8', { is_identity: true, identity_generation: 'ALWAYS', is_nullable: false }),
  column(16392, 2, 'user_id', 'uuid'),
  column(16392, 3, 'name', 'text'),
];

export const previewReply: RouteReply<typeof policiesRoutes.previewPolicy> = {
  count: 2,
  rows: [
    { id: 1, user_id: '6f1c2a4e-0000-4000-8000-000000000001', name: 'Ada' },
    { id: 2, user_id: '6f1c2a4e-0000-4000-8000-000000000002', name: null },
  ],
  columns: [
    { name: 'id', type: 'int8' },
    { name: 'user_id', type: 'uuid' },
    { name: 'name', type: 'text' },
  ],
  rls_enabled: true,
};

export const previewWithCheckReply: RouteReply<typeof policiesRoutes.previewPolicy> = {
  ...previewReply,
  check: { passed: false, message: 'new row violates row-level security policy for table "profiles"' },
};
