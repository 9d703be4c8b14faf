import { Messages, type PgPolicy, type PolicyCommand, type PolicyCreate, type PolicyUpdate } from '@dash/contracts';
import { badRequest, type SqlQuery } from '@dash/service-kit';
import { sqlExpression } from './ddl/expression';
import { ident, qualified } from './ddl/names';
import { schemaFilter, TEMP_SCHEMA_REGEX, type SchemaFilterInput } from './filters';

/** One policy, or the policies of one table: by oid, or by schema, table and name. */
export interface PolicyLookup {
  id?: number;
  schema?: string;
  table?: string;
  name?: string;
}

/**
 * postgres-meta's policy list: one row per pg_policy entry. Role 0 in polroles is `public`. A lookup
 * narrows it to one policy (the schema filter still applies: give `include_system_schemas`).
 */
export function listPoliciesQuery(input: SchemaFilterInput & { limit?: number; offset?: number }, lookup: PolicyLookup = {}): SqlQuery {
  const { include, exclude } = schemaFilter(input);
  return {
    text: `
select
  pol.oid::int8 as id,
  n.nspname as schema,
  c.relname as table,
  c.oid::int8 as table_id,
  pol.polname as name,
  case when pol.polpermissive then 'PERMISSIVE' else 'RESTRICTIVE' end as action,
  array(
    select case when r.oid = 0 then 'public' else coalesce(ro.rolname::text, r.oid::text) end
    from unnest(pol.polroles) with ordinality as r(oid, ord)
    left join pg_catalog.pg_roles ro on ro.oid = r.oid
    order by r.ord
  )::text[] as roles,
  case pol.polcmd
    when 'r' then 'SELECT' when 'a' then 'INSERT' when 'w' then 'UPDATE' when 'd' then 'DELETE' else 'ALL'
  end as command,
  pg_catalog.pg_get_expr(pol.polqual, pol.polrelid) as definition,
  pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid) as check
from pg_catalog.pg_policy pol
join pg_catalog.pg_class c on c.oid = pol.polrelid
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where n.nspname !~ $1
  and ($2::text[] is null or n.nspname = any($2::text[]))
  and n.nspname <> all($3::text[])
  and ($4::int8 is null or pol.oid = $4::int8::oid)
  and ($5::text is null or n.nspname = $5)
  and ($6::text is null or c.relname = $6)
  and ($7::text is null or pol.polname = $7)
order by n.nspname, c.relname, pol.polname
limit $8::int8 offset $9::int8`,
    values: [
      TEMP_SCHEMA_REGEX,
      include,
      exclude,
      lookup.id ?? null,
      lookup.schema ?? null,
      lookup.table ?? null,
      lookup.name ?? null,
      input.limit ?? null,
      input.offset ?? 0,
    ],
  };
}

/** A policy found anywhere but in temporary schemas (writes address it by id or by name). */
export const findPolicyQuery = (lookup: PolicyLookup) => listPoliciesQuery({ include_system_schemas: true }, lookup);

/** A policy as the builders take it: where it is, what it is called, what it does. */
export interface PolicySpec {
  name: string;
  /** PERMISSIVE when not given. */
  action?: PgPolicy['action'];
  schema: string;
  table: string;
  command: PolicyCommand;
  /** The USING expression (SQL), or null. */
  definition: string | null;
  /** The WITH CHECK expression (SQL), or null. */
  check: string | null;
  /** Target roles; empty means public. */
  roles: readonly string[];
}

/** A blank expression is none. */
export function normalizeExpression(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  return text.trim() === '' ? null : text;
}

/** USING filters the rows a command reads; WITH CHECK checks the rows it writes (spec section 5). */
export const usesUsing = (command: PolicyCommand) => command !== 'INSERT';
export const usesCheck = (command: PolicyCommand) => command === 'INSERT' || command === 'UPDATE' || command === 'ALL';

/**
 * The spec's validation rules: a name; USING for SELECT and DELETE; WITH CHECK for INSERT; one of them
 * for UPDATE; and no expression a command does not use.
 */
export function validatePolicy(policy: PolicySpec, { nameGiven = true } = {}): void {
  if (nameGiven && policy.name.trim() === '') throw badRequest(Messages.policyNameRequired);
  const { command } = policy;
  const definition = normalizeExpression(policy.definition);
  const check = normalizeExpression(policy.check);
  if ((command === 'SELECT' || command === 'DELETE') && !definition) throw badRequest(Messages.policyUsingRequired);
  if (command === 'INSERT' && !check) throw badRequest(Messages.policyCheckRequired);
  if (command === 'UPDATE' && !definition && !check) throw badRequest(Messages.policyUsingOrCheckRequired);
  if (definition && !usesUsing(command)) throw badRequest('A USING expression applies to SELECT, UPDATE, DELETE and ALL policies only');
  if (check && !usesCheck(command)) throw badRequest('A WITH CHECK expression applies to INSERT, UPDATE and ALL policies only');
}

/**
 * The roles a policy really targets: every role is a member of `public`, and Postgres keeps only
 * `public` when it is listed with others (with a warning), so the list is that too. Empty means public.
 */
export function targetRoles(roles: readonly string[]): string[] {
  const unique = [...new Set(roles)];
  return unique.length === 0 || unique.includes('public') ? ['public'] : unique;
}

/** `to ...`: the roles quoted, `public` as the keyword it is. */
export function policyRolesSql(roles: readonly string[]): string {
  return targetRoles(roles)
    .map((role) => (role === 'public' ? 'public' : ident(role)))
    .join(', ');
}

const tableOf = (policy: Pick<PolicySpec, 'schema' | 'table'>) => qualified({ schema: policy.schema, name: policy.table });

/** The expression clauses a command takes; the others are left out. */
function expressionClauses(command: PolicyCommand, definition: string | null, check: string | null): string {
  const using = normalizeExpression(definition);
  const withCheck = normalizeExpression(check);
  return (
    (using !== null && usesUsing(command) ? ` using ${sqlExpression(using, 'USING expression')}` : '') +
    (withCheck !== null && usesCheck(command) ? ` with check ${sqlExpression(withCheck, 'WITH CHECK expression')}` : '')
  );
}

/** `create policy`, PERMISSIVE unless RESTRICTIVE is asked for, with the spec's fields. */
export function createPolicyStatement(policy: PolicySpec): string {
  const action = policy.action === 'RESTRICTIVE' ? 'restrictive' : 'permissive';
  return (
    `create policy ${ident(policy.name)} on ${tableOf(policy)} as ${action} for ${policy.command.toLowerCase()}` +
    ` to ${policyRolesSql(policy.roles)}${expressionClauses(policy.command, policy.definition, policy.check)}`
  );
}

export const dropPolicyStatement = (policy: Pick<PolicySpec, 'name' | 'schema' | 'table'>) =>
  `drop policy ${ident(policy.name)} on ${tableOf(policy)}`;

/**
 * The policy a create request asks for: in `public` unless it names a schema, public when no roles,
 * PERMISSIVE and for ALL commands unless it says otherwise (postgres-meta's defaults).
 */
export function createSpecOf(body: PolicyCreate): PolicySpec {
  return {
    name: body.name,
    action: body.action ?? 'PERMISSIVE',
    schema: body.schema ?? 'public',
    table: body.table,
    command: body.command ?? 'ALL',
    definition: body.definition ?? null,
    check: body.check ?? null,
    roles: body.roles ?? [],
  };
}

/** The policy as it is, in the builders' terms. */
export function specOf(policy: PgPolicy): PolicySpec {
  return {
    name: policy.name,
    action: policy.action,
    schema: policy.schema,
    table: policy.table,
    command: policy.command,
    definition: policy.definition,
    check: policy.check,
    // Postgres stores `public` as role 0; an explicit `to public` is the same as none.
    roles: policy.roles.length === 1 && policy.roles[0] === 'public' ? [] : policy.roles,
  };
}

const sameRoles = (a: readonly string[], b: readonly string[]) => {
  const x = new Set(targetRoles(a));
  const y = new Set(targetRoles(b));
  return x.size === y.size && [...x].every((role) => y.has(role));
};

/**
 * The statements that turn `current` into `current` + `update`, to run in one transaction, and the
 * policy as it will be. Only what changed is sent: `alter policy ... to/using/with check` for the roles
 * and expressions, then `alter policy ... rename to`. ALTER POLICY cannot remove an expression, so a
 * removed USING or WITH CHECK drops and recreates the policy (same action, name, command and roles; a
 * new id).
 */
export function updatePolicyStatements(current: PolicySpec, update: PolicyUpdate): { statements: string[]; next: PolicySpec } {
  const next: PolicySpec = {
    ...current,
    ...(update.name !== undefined ? { name: update.name } : {}),
    ...(update.definition !== undefined ? { definition: normalizeExpression(update.definition) } : {}),
    ...(update.check !== undefined ? { check: normalizeExpression(update.check) } : {}),
    ...(update.roles !== undefined ? { roles: update.roles } : {}),
  };
  // A policy keeps the name it has (made elsewhere, it may be blank) unless a new one is given.
  validatePolicy(next, { nameGiven: update.name !== undefined });
  const removed = (current.definition !== null && next.definition === null) || (current.check !== null && next.check === null);
  if (removed) return { statements: [dropPolicyStatement(current), createPolicyStatement(next)], next };

  const statements: string[] = [];
  const roles = update.roles !== undefined && !sameRoles(current.roles, next.roles) ? ` to ${policyRolesSql(next.roles)}` : '';
  const definition = next.definition !== current.definition ? next.definition : null;
  const check = next.check !== current.check ? next.check : null;
  const clauses = roles + expressionClauses(next.command, definition, check);
  if (clauses) statements.push(`alter policy ${ident(current.name)} on ${tableOf(current)}${clauses}`);
  if (next.name !== current.name) {
    statements.push(`alter policy ${ident(current.name)} on ${tableOf(current)} rename to ${ident(next.name)}`);
  }
  return { statements, next };
}
