import type { SqlEditorRoleName, SqlRunAs } from '@dash/contracts';

/** The role picker's state: the role, and for `authenticated` the user's claims as typed. */
export interface RoleChoice {
  role: SqlEditorRoleName;
  sub: string;
  email: string;
}

export const DEFAULT_ROLE_CHOICE: RoleChoice = { role: 'postgres', sub: '', email: '' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const INVALID_SUB = "The user's id is a UUID, like 4d3c2b1a-…";

/** Why the choice cannot be used as it is (a `sub` that is not a UUID, which `auth.uid()` would fail on). */
export function roleChoiceProblem(choice: RoleChoice): string | undefined {
  if (choice.role !== 'authenticated') return undefined;
  const sub = choice.sub.trim();
  return sub !== '' && !UUID.test(sub) ? INVALID_SUB : undefined;
}

/**
 * The `runAs` of a request: none for `postgres` (the project admin role, no impersonation), the role
 * for anon and service_role, and for authenticated the claims `auth.uid()` and `auth.jwt()` read
 * (`sub` and `email` when given, `aud: authenticated` as a real access token has). The service adds
 * the role itself to the claims.
 */
export function runAsOf(choice: RoleChoice): SqlRunAs | undefined {
  if (choice.role === 'postgres') return undefined;
  if (choice.role !== 'authenticated') return { role: choice.role };
  const sub = choice.sub.trim();
  const email = choice.email.trim();
  return { role: 'authenticated', claims: { aud: 'authenticated', ...(sub ? { sub } : {}), ...(email ? { email } : {}) } };
}

export function roleLabel(choice: RoleChoice): string {
  if (choice.role === 'authenticated' && choice.sub.trim()) return `authenticated (${choice.email.trim() || shortId(choice.sub.trim())})`;
  return choice.role;
}

const shortId = (id: string) => (id.length > 13 ? `${id.slice(0, 8)}…` : id);
