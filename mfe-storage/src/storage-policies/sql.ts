import type { PgPolicy, PolicyCommand, PolicyCreateWithCommand, PolicyUpdate } from '@dash/contracts';

/*
 * The SQL the review step shows, statement for statement what the pg-meta service runs for the
 * payloads: identifiers double-quoted with `"` doubled, `public` as the keyword, each expression in
 * one pair of parentheses, only the clauses the command uses. Laid out one clause a line to read.
 */

/** The operations a storage policy can allow, in the order policies are made for them. */
export const STORAGE_OPERATIONS = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'] as const;
export type StorageOperation = (typeof STORAGE_OPERATIONS)[number];

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** A SQL string literal: `'` doubled (standard_conforming_strings keeps backslashes as they are). */
export const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** USING filters the rows a command reads; WITH CHECK checks the rows it writes. */
export const usesUsing = (command: PolicyCommand) => command !== 'INSERT';
export const usesCheck = (command: PolicyCommand) => command === 'INSERT' || command === 'UPDATE' || command === 'ALL';

/** Every role belongs to `public`, so a list naming it (or none) is just `public`. */
export function targetRoles(roles: readonly string[]): string[] {
  const unique = [...new Set(roles)];
  return unique.length === 0 || unique.includes('public') ? ['public'] : unique;
}

const rolesSql = (roles: readonly string[]) =>
  targetRoles(roles)
    .map((role) => (role === 'public' ? 'public' : quoteIdent(role)))
    .join(', ');

const tableSql = (schema: string, table: string) => `${quoteIdent(schema)}.${quoteIdent(table)}`;

const clauses = (definition: string | null | undefined, check: string | null | undefined) =>
  (definition ? `\nusing (${definition})` : '') + (check ? `\nwith check (${check})` : '');

export function createPolicySql(policy: PolicyCreateWithCommand): string {
  return (
    `create policy ${quoteIdent(policy.name)}\non ${tableSql(policy.schema ?? 'public', policy.table)}\nas permissive\n` +
    `for ${policy.command.toLowerCase()}\nto ${rolesSql(policy.roles ?? [])}${clauses(policy.definition, policy.check)};`
  );
}

/** What an update of `policy` runs: `alter policy` for the roles and expressions, then the rename. */
export function updatePolicySql(policy: PgPolicy, update: PolicyUpdate): string[] {
  const target = `${quoteIdent(policy.name)} on ${tableSql(policy.schema, policy.table)}`;
  const statements: string[] = [];
  const to = update.roles !== undefined ? `\nto ${rolesSql(update.roles)}` : '';
  const changes = to + clauses(update.definition, update.check);
  if (changes) statements.push(`alter policy ${target}${changes};`);
  if (update.name !== undefined) statements.push(`alter policy ${target}\nrename to ${quoteIdent(update.name)};`);
  return statements;
}
