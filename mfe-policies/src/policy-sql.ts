import type { PgPolicy, PolicyCommand, PolicyUpdate } from '@dash/contracts';

/*
 * The SQL the review shows. It mirrors, statement for statement, what the pg-meta service builds
 * (services/pg-meta/src/sql/policies.ts), so the user reads exactly what will run: identifiers
 * double-quoted with `"` doubled, `public` as the keyword, expressions inserted as written in one pair
 * of parentheses, only the clauses the command uses.
 */

/** A policy as the statements take it. Empty roles mean public. */
export interface PolicySqlSpec {
  name: string;
  action?: PgPolicy['action'];
  schema: string;
  table: string;
  command: PolicyCommand;
  definition: string | null;
  check: string | null;
  roles: readonly string[];
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A blank expression is none. */
export function normalizeExpression(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  return text.trim() === '' ? null : text;
}

/** USING filters the rows a command reads; WITH CHECK checks the rows it writes (spec section 5). */
export const usesUsing = (command: PolicyCommand) => command !== 'INSERT';
export const usesCheck = (command: PolicyCommand) => command === 'INSERT' || command === 'UPDATE' || command === 'ALL';

/** Every role belongs to `public`, so a list naming it (or none) is just `public`. */
export function targetRoles(roles: readonly string[]): string[] {
  const unique = [...new Set(roles)];
  return unique.length === 0 || unique.includes('public') ? ['public'] : unique;
}

export const rolesSql = (roles: readonly string[]) =>
  targetRoles(roles)
    .map((role) => (role === 'public' ? 'public' : quoteIdent(role)))
    .join(', ');

const tableSql = (policy: Pick<PolicySqlSpec, 'schema' | 'table'>) => `${quoteIdent(policy.schema)}.${quoteIdent(policy.table)}`;

function expressionClauses(command: PolicyCommand, definition: string | null, check: string | null): string {
  const using = normalizeExpression(definition);
  const withCheck = normalizeExpression(check);
  return (
    (using !== null && usesUsing(command) ? ` using (${using})` : '') +
    (withCheck !== null && usesCheck(command) ? ` with check (${withCheck})` : '')
  );
}

export function createPolicySql(policy: PolicySqlSpec): string {
  const action = policy.action === 'RESTRICTIVE' ? 'restrictive' : 'permissive';
  return (
    `create policy ${quoteIdent(policy.name)} on ${tableSql(policy)} as ${action} for ${policy.command.toLowerCase()}` +
    ` to ${rolesSql(policy.roles)}${expressionClauses(policy.command, policy.definition, policy.check)}`
  );
}

export const dropPolicySql = (policy: Pick<PolicySqlSpec, 'name' | 'schema' | 'table'>) => `drop policy ${quoteIdent(policy.name)} on ${tableSql(policy)}`;

/** A saved policy in the statements' terms (Postgres lists an explicit `to public` as `public`). */
export function sqlSpecOf(policy: PgPolicy): PolicySqlSpec {
  return {
    name: policy.name,
    action: policy.action,
    schema: policy.schema,
    table: policy.table,
    command: policy.command,
    definition: policy.definition,
    check: policy.check,
    roles: policy.roles.length === 1 && policy.roles[0] === 'public' ? [] : policy.roles,
  };
}

const sameRoles = (a: readonly string[], b: readonly string[]) => {
  const x = new Set(targetRoles(a));
  const y = new Set(targetRoles(b));
  return x.size === y.size && [...x].every((role) => y.has(role));
};

/**
 * What an update runs: `alter policy` for the roles and expressions that changed, then the rename. A
 * removed expression cannot be altered away, so the policy is dropped and created again.
 */
export function updatePolicySql(current: PolicySqlSpec, update: PolicyUpdate): string[] {
  const next: PolicySqlSpec = {
    ...current,
    ...(update.name !== undefined ? { name: update.name } : {}),
    ...(update.definition !== undefined ? { definition: normalizeExpression(update.definition) } : {}),
    ...(update.check !== undefined ? { check: normalizeExpression(update.check) } : {}),
    ...(update.roles !== undefined ? { roles: update.roles } : {}),
  };
  const removed = (current.definition !== null && next.definition === null) || (current.check !== null && next.check === null);
  if (removed) return [dropPolicySql(current), createPolicySql(next)];

  const statements: string[] = [];
  const roles = update.roles !== undefined && !sameRoles(current.roles, next.roles) ? ` to ${rolesSql(next.roles)}` : '';
  const definition = next.definition !== current.definition ? next.definition : null;
  const check = next.check !== current.check ? next.check : null;
  const clauses = roles + expressionClauses(next.command, definition, check);
  if (clauses) statements.push(`alter policy ${quoteIdent(current.name)} on ${tableSql(current)}${clauses}`);
  if (next.name !== current.name) statements.push(`alter policy ${quoteIdent(current.name)} on ${tableSql(current)} rename to ${quoteIdent(next.name)}`);
  return statements;
}

/** Statements as the review shows them: one per line, each ending with `;`. */
export const sqlScript = (statements: readonly string[]) => statements.map((s) => `${s};`).join('\n');
