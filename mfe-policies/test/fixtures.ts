import type { PgPolicy, PgTable, RouteReply, pgMetaRoutes, tableEditorRoutes } from '@dash/contracts';

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
