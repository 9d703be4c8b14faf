import type { PgTable } from '@dash/contracts';

/** The screen's search: trimmed, matching a table's name (case-insensitive) or its exact id. */
export function filterTables(tables: readonly PgTable[], rawSearch: string): PgTable[] {
  const search = rawSearch.trim().toLowerCase();
  if (!search) return [...tables];
  return tables.filter((t) => t.name.toLowerCase().includes(search) || String(t.id) === search);
}

/** How many roles a policy lists before '+ N more roles'. */
export const VISIBLE_ROLES = 3;

export function splitRoles(roles: readonly string[]): { shown: string[]; more: string[] } {
  return { shown: roles.slice(0, VISIBLE_ROLES), more: roles.slice(VISIBLE_ROLES) };
}
