import { POLICY_ROLES_LISTED, type PgTable } from '@dash/contracts';

/** The screen's search: trimmed, matching a table's name (case-insensitive) or its exact id. */
export function filterTables(tables: readonly PgTable[], rawSearch: string): PgTable[] {
  const search = rawSearch.trim().toLowerCase();
  if (!search) return [...tables];
  return tables.filter((t) => t.name.toLowerCase().includes(search) || String(t.id) === search);
}

/** A policy's roles as listed: the first few, then '+ N more roles'. */
export function splitRoles(roles: readonly string[]): { shown: string[]; more: string[] } {
  return { shown: roles.slice(0, POLICY_ROLES_LISTED), more: roles.slice(POLICY_ROLES_LISTED) };
}
