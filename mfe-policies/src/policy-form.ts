import {
  Messages,
  normalizeExpression,
  POLICY_NAME_MAX_LENGTH,
  policyProblems,
  policySpecOf,
  samePolicyRoles,
  targetRoles,
  usesCheck,
  usesUsing,
  type PgPolicy,
  type PgRole,
  type PgTable,
  type PolicyCommand,
  type PolicyCreate,
  type PolicySpec,
  type PolicyUpdate,
} from '@dash/contracts';

/** The policy editor's values. An empty command is "not chosen yet"; empty roles mean public. */
export interface PolicyFormValues {
  name: string;
  command: PolicyCommand | '';
  definition: string;
  check: string;
  roles: string[];
}

export const POLICY_COMMANDS: readonly PolicyCommand[] = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'ALL'];

export const EMPTY_POLICY_FORM: PolicyFormValues = { name: '', command: '', definition: '', check: '', roles: [] };

/** The form of a saved policy: its own values, `public` shown as no role chosen. */
export function formOfPolicy(policy: PgPolicy): PolicyFormValues {
  const spec = policySpecOf(policy);
  return { name: policy.name, command: policy.command, definition: policy.definition ?? '', check: policy.check ?? '', roles: [...spec.roles] };
}

/**
 * The spec's rules (contracts' `policyProblems`, the ones the service applies), with their exact
 * messages, each on its field; before an operation is chosen, only the name and the operation.
 */
export function validatePolicyForm(values: PolicyFormValues): Partial<Record<keyof PolicyFormValues, string>> {
  const errors: Partial<Record<keyof PolicyFormValues, string>> = {};
  const { command } = values;
  if (!command) {
    if (!values.name.trim()) errors.name = Messages.policyNameRequired;
    errors.command = Messages.policyOperationRequired;
    return errors;
  }
  // The form holds every expression typed; only the ones the operation uses are sent.
  const spec = { name: values.name, schema: '', table: '', command, roles: values.roles, ...expressionsOf(values, command) };
  for (const problem of policyProblems(spec)) errors[problem.field] ??= problem.message;
  return errors;
}

/** Changing the operation clears the expressions the new one does not use (spec section 4). */
export function expressionsKept(command: PolicyCommand, values: Pick<PolicyFormValues, 'definition' | 'check'>): Pick<PolicyFormValues, 'definition' | 'check'> {
  return { definition: usesUsing(command) ? values.definition : '', check: usesCheck(command) ? values.check : '' };
}

/** Input beyond the name limit is ignored. */
export const limitName = (name: string) => name.slice(0, POLICY_NAME_MAX_LENGTH);

/** The expressions the command takes; the others are left out. */
function expressionsOf(values: PolicyFormValues, command: PolicyCommand) {
  return {
    definition: usesUsing(command) ? normalizeExpression(values.definition) : null,
    check: usesCheck(command) ? normalizeExpression(values.check) : null,
  };
}

/** A valid form with its command chosen, as the statements take it. */
export function sqlSpecOfForm(values: PolicyFormValues, table: Pick<PgTable, 'schema' | 'name'>): PolicySpec {
  const command = values.command as PolicyCommand;
  return { name: values.name, schema: table.schema, table: table.name, command, roles: values.roles, ...expressionsOf(values, command) };
}

/** The spec's create payload: always PERMISSIVE. */
export function createPayload(values: PolicyFormValues, table: Pick<PgTable, 'schema' | 'name'>): PolicyCreate {
  const spec = sqlSpecOfForm(values, table);
  return { name: spec.name, schema: spec.schema, table: spec.table, action: 'PERMISSIVE', command: spec.command, definition: spec.definition, check: spec.check, roles: values.roles };
}

/** The spec's update payload: only the changed name, definition, check and roles (empty when nothing changed). */
export function updatePayload(policy: PgPolicy, values: PolicyFormValues): PolicyUpdate {
  const current = policySpecOf(policy);
  const { definition, check } = expressionsOf(values, policy.command);
  return {
    ...(values.name !== policy.name ? { name: values.name } : {}),
    ...(definition !== policy.definition ? { definition } : {}),
    ...(check !== policy.check ? { check } : {}),
    ...(!samePolicyRoles(values.roles, current.roles) ? { roles: values.roles } : {}),
  };
}

/** Whether closing would lose something: a new form with anything in it, or an edit that changes the policy. */
export function hasChanges(policy: PgPolicy | undefined, values: PolicyFormValues): boolean {
  if (policy) return Object.keys(updatePayload(policy, values)).length > 0;
  return Boolean(values.name || values.command || values.definition || values.check || values.roles.length);
}

/** Roles the picker leaves out (spec section 6); `pg_` roles are system roles too. */
export const HIDDEN_ROLES: readonly string[] = [
  'postgres',
  'pgbouncer',
  'dashboard_user',
  'authenticator',
  'pg_database_owner',
  'pg_read_all_data',
  'pg_write_all_data',
  'supabase_admin',
  'supabase_auth_admin',
  'supabase_storage_admin',
];

/**
 * Roles no policy is written for: the spec's hidden ones and `pg_` roles, superusers (row-level
 * security never applies to them), and login roles that bypass it: the connections the product itself
 * uses (the project's admin, read-only and storage roles), which policies never reach either.
 */
export const isHiddenRole = (role: Pick<PgRole, 'name' | 'is_superuser' | 'can_login' | 'can_bypass_rls'>) =>
  HIDDEN_ROLES.includes(role.name) || role.name.startsWith('pg_') || role.is_superuser || (role.can_login && role.can_bypass_rls);

/** The role picker's choices: the database's roles without the hidden ones, plus any the policy already names. */
export function pickableRoles(roles: readonly PgRole[], chosen: readonly string[]): string[] {
  const names = roles.filter((r) => !isHiddenRole(r)).map((r) => r.name);
  return [...new Set([...names, ...chosen.filter((name) => name !== 'public')])].sort((a, b) => a.localeCompare(b));
}

/**
 * Roles the preview may act as: not the hidden ones and not superusers (the service refuses to assume
 * them), `anon` and `authenticated` first.
 */
export function previewRoles(roles: readonly PgRole[]): string[] {
  const others = roles
    .filter((r) => !isHiddenRole(r) && r.name !== 'anon' && r.name !== 'authenticated')
    .map((r) => r.name)
    .sort((a, b) => a.localeCompare(b));
  return ['anon', 'authenticated', ...others];
}

/** Anonymous users sign in with the authenticated role, so policies for it (or for everyone) reach them. */
export const appliesToAnonymousUsers = (roles: readonly string[]) => targetRoles(roles).some((role) => role === 'public' || role === 'authenticated');
