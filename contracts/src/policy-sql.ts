import { Messages } from './messages';
import type { PgPolicy } from './pg-meta';
import type { PolicyCommand, PolicyCreate, PolicyUpdate } from './policies';

/*
 * Row-level security policies as statements: the one home of their rules and SQL. The pg-meta service
 * runs these statements; the policies and storage remotes show the same ones in their review step, so
 * what a user reads is what runs. The service passes its own `ident` and `expression`, which refuse
 * what Postgres could not keep (over-long names, an expression that would leave its parentheses) but
 * never change the text.
 */

/** A policy as the statements take it. Empty roles mean public. */
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
  roles: readonly string[];
}

export type PolicyClause = 'USING expression' | 'WITH CHECK expression';

export interface PolicySqlOptions {
  /** Quotes a name. */
  ident?: (name: string) => string;
  /** Puts an expression in its one pair of parentheses. */
  expression?: (text: string, clause: PolicyClause) => string;
  /** Between clauses: one line (as run) or one clause a line (to read). */
  separator?: ' ' | '\n';
}

/** A quoted identifier: `"` doubled. */
export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** A SQL string literal: `'` doubled (standard_conforming_strings keeps backslashes as they are). */
export const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

const build = (options: PolicySqlOptions) => ({
  ident: options.ident ?? quoteIdent,
  expression: options.expression ?? ((text: string) => `(${text})`),
  sep: options.separator ?? ' ',
});

/** A blank expression is none. */
export function normalizeExpression(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  return text.trim() === '' ? null : text;
}

/** USING filters the rows a command reads; WITH CHECK checks the rows it writes. */
export const usesUsing = (command: PolicyCommand) => command !== 'INSERT';
export const usesCheck = (command: PolicyCommand) => command === 'INSERT' || command === 'UPDATE' || command === 'ALL';

/**
 * The roles a policy really targets: every role is a member of `public`, and Postgres keeps only
 * `public` when it is listed with others, so the list is that too. Empty means public.
 */
export function targetRoles(roles: readonly string[]): string[] {
  const unique = [...new Set(roles)];
  return unique.length === 0 || unique.includes('public') ? ['public'] : unique;
}

/** Whether two role lists target the same roles. */
export function samePolicyRoles(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(targetRoles(a));
  const y = new Set(targetRoles(b));
  return x.size === y.size && [...x].every((role) => y.has(role));
}

export interface PolicyProblem {
  field: 'name' | 'definition' | 'check';
  message: string;
}

/**
 * The spec's rules, each with its message and the field it belongs to: a name; USING for SELECT and
 * DELETE; WITH CHECK for INSERT; one of them for UPDATE (reported on USING); no expression a command
 * does not use. A policy made elsewhere may keep a blank name: `nameGiven: false` skips that rule.
 */
export function policyProblems(policy: PolicySpec, { nameGiven = true } = {}): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  if (nameGiven && policy.name.trim() === '') problems.push({ field: 'name', message: Messages.policyNameRequired });
  const { command } = policy;
  const definition = normalizeExpression(policy.definition);
  const check = normalizeExpression(policy.check);
  if ((command === 'SELECT' || command === 'DELETE') && !definition) problems.push({ field: 'definition', message: Messages.policyUsingRequired });
  if (command === 'INSERT' && !check) problems.push({ field: 'check', message: Messages.policyCheckRequired });
  if (command === 'UPDATE' && !definition && !check) problems.push({ field: 'definition', message: Messages.policyUsingOrCheckRequired });
  if (definition && !usesUsing(command)) problems.push({ field: 'definition', message: Messages.policyUsingNotApplicable });
  if (check && !usesCheck(command)) problems.push({ field: 'check', message: Messages.policyCheckNotApplicable });
  return problems;
}

function rolesSql(roles: readonly string[], ident: (name: string) => string): string {
  return targetRoles(roles)
    .map((role) => (role === 'public' ? 'public' : ident(role)))
    .join(', ');
}

const tableSql = (policy: Pick<PolicySpec, 'schema' | 'table'>, ident: (name: string) => string) => `${ident(policy.schema)}.${ident(policy.table)}`;

/** The expression clauses a command takes; the others and blank ones are left out. */
function expressionClauses(command: PolicyCommand, definition: string | null, check: string | null, options: PolicySqlOptions): string {
  const { expression, sep } = build(options);
  const using = normalizeExpression(definition);
  const withCheck = normalizeExpression(check);
  return (
    (using !== null && usesUsing(command) ? `${sep}using ${expression(using, 'USING expression')}` : '') +
    (withCheck !== null && usesCheck(command) ? `${sep}with check ${expression(withCheck, 'WITH CHECK expression')}` : '')
  );
}

/** `create policy`, PERMISSIVE unless RESTRICTIVE is asked for. */
export function createPolicyStatement(policy: PolicySpec, options: PolicySqlOptions = {}): string {
  const { ident, sep } = build(options);
  const action = policy.action === 'RESTRICTIVE' ? 'restrictive' : 'permissive';
  return (
    `create policy ${ident(policy.name)}${sep}on ${tableSql(policy, ident)}${sep}as ${action}${sep}for ${policy.command.toLowerCase()}` +
    `${sep}to ${rolesSql(policy.roles, ident)}${expressionClauses(policy.command, policy.definition, policy.check, options)}`
  );
}

export function dropPolicyStatement(policy: Pick<PolicySpec, 'name' | 'schema' | 'table'>, options: PolicySqlOptions = {}): string {
  const { ident } = build(options);
  return `drop policy ${ident(policy.name)} on ${tableSql(policy, ident)}`;
}

/**
 * The policy a create request asks for: in `public` unless it names a schema, public when no roles,
 * PERMISSIVE and for ALL commands unless it says otherwise (postgres-meta's defaults).
 */
export function policySpecOfCreate(body: PolicyCreate): PolicySpec {
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

/** A saved policy in the statements' terms. */
export function policySpecOf(policy: PgPolicy): PolicySpec {
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

/** `current` with an update applied (blank expressions become none). */
export function updatedPolicySpec(current: PolicySpec, update: PolicyUpdate): PolicySpec {
  return {
    ...current,
    ...(update.name !== undefined ? { name: update.name } : {}),
    ...(update.definition !== undefined ? { definition: normalizeExpression(update.definition) } : {}),
    ...(update.check !== undefined ? { check: normalizeExpression(update.check) } : {}),
    ...(update.roles !== undefined ? { roles: update.roles } : {}),
  };
}

/**
 * The statements that turn `current` into `current` + `update`, to run in one transaction. Only what
 * changed is sent: `alter policy ... to/using/with check` for the roles and expressions, then
 * `alter policy ... rename to`. ALTER POLICY cannot remove an expression, so a removed USING or WITH
 * CHECK drops and recreates the policy (same action, name, command and roles; a new id).
 */
export function updatePolicyStatements(current: PolicySpec, update: PolicyUpdate, options: PolicySqlOptions = {}): string[] {
  const { ident, sep } = build(options);
  const next = updatedPolicySpec(current, update);
  const removed = (current.definition !== null && next.definition === null) || (current.check !== null && next.check === null);
  if (removed) return [dropPolicyStatement(current, options), createPolicyStatement(next, options)];

  const target = `${ident(current.name)} on ${tableSql(current, ident)}`;
  const statements: string[] = [];
  const roles = update.roles !== undefined && !samePolicyRoles(current.roles, next.roles) ? `${sep}to ${rolesSql(next.roles, ident)}` : '';
  const definition = next.definition !== current.definition ? next.definition : null;
  const check = next.check !== current.check ? next.check : null;
  const clauses = roles + expressionClauses(next.command, definition, check, options);
  if (clauses) statements.push(`alter policy ${target}${clauses}`);
  if (next.name !== current.name) statements.push(`alter policy ${target}${sep}rename to ${ident(next.name)}`);
  return statements;
}

/** Statements as a review shows them: each ending with `;`, one per line (a blank line between with `\n` layout). */
export const policySqlScript = (statements: readonly string[], separator: ' ' | '\n' = ' ') =>
  statements.map((s) => `${s};`).join(separator === '\n' ? '\n\n' : '\n');
