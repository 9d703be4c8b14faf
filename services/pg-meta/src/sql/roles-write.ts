import { STANDARD_ROLES, type RoleConfigChange, type RoleCreate, type RoleUpdate } from '@dash/contracts';
import { badRequest, type SqlQuery } from '@dash/service-kit';
import { listRolesQuery } from './catalog/roles';
import { ident, literal } from './ddl/names';

/*
 * Builders of role writes, in the postgres-meta dialect's terms. Names are quoted identifiers, the
 * password, expiry and setting values quoted literals. Superuser is never granted from the dashboard.
 */

export const SUPERUSER_NOT_GRANTABLE = 'Superuser cannot be granted from the dashboard';

type Flags = Pick<RoleCreate, 'inherit_role' | 'can_login' | 'can_create_db' | 'can_create_role' | 'is_replication_role' | 'can_bypass_rls'>;

const FLAG_KEYWORDS: ReadonlyArray<[keyof Flags, string]> = [
  ['can_create_db', 'createdb'],
  ['can_create_role', 'createrole'],
  ['inherit_role', 'inherit'],
  ['can_login', 'login'],
  ['is_replication_role', 'replication'],
  ['can_bypass_rls', 'bypassrls'],
];

/** The role options given (in a fixed order); `defaults` fills the ones not given (create only). */
function roleOptions(input: Flags & Pick<RoleUpdate, 'is_superuser' | 'connection_limit' | 'password' | 'valid_until'>, defaults?: Required<Flags>): string[] {
  if (input.is_superuser === true) throw badRequest(SUPERUSER_NOT_GRANTABLE);
  const options: string[] = [];
  if (input.is_superuser === false || defaults) options.push('nosuperuser');
  for (const [key, keyword] of FLAG_KEYWORDS) {
    const value = input[key] ?? defaults?.[key];
    if (value !== undefined) options.push(value ? keyword : `no${keyword}`);
  }
  const limit = input.connection_limit ?? (defaults ? -1 : undefined);
  if (limit !== undefined) {
    if (!Number.isInteger(limit) || limit < -1) throw badRequest('The connection limit is a whole number, -1 for unlimited');
    options.push(`connection limit ${limit}`);
  }
  if (input.password !== undefined) options.push(input.password === null ? 'password null' : `password ${literal(input.password)}`);
  if (input.valid_until !== undefined) options.push(`valid until ${literal(input.valid_until ?? 'infinity')}`);
  return options;
}

const roleList = (roles: readonly string[]) => [...new Set(roles)].map((role) => ident(role)).join(', ');

/**
 * Settings whose value is a list Postgres quotes element by element (search_path): given as one
 * literal, 'app, public' would become the single schema "app, public". Each element is its own literal.
 */
const LIST_SETTINGS = new Set(['search_path', 'temp_tablespaces', 'local_preload_libraries', 'session_preload_libraries']);

/** The elements of a list value as Postgres prints it: comma-separated, each maybe "double-quoted". */
export function listSettingElements(value: string): string[] {
  const elements: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === '"') {
      if (quoted && value[i + 1] === '"') {
        current += '"';
        i++;
      } else quoted = !quoted;
    } else if (c === ',' && !quoted) {
      elements.push(current.trim());
      current = '';
    } else current += c;
  }
  elements.push(current.trim());
  return elements;
}

/** postgres-meta's setting changes as settings to set (`add`, `replace`) or reset (`remove`: null). */
export function roleConfigOf(changes: readonly RoleConfigChange[]): Record<string, string | null> {
  return Object.fromEntries(changes.map((change) => [change.path, change.op === 'remove' ? null : change.value]));
}

/** `alter role ... set/reset` per setting; a null value resets it. */
export function roleConfigStatements(role: string, config: Record<string, string | null>): string[] {
  const name = ident(role);
  return Object.entries(config).map(([setting, value]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_$.]*$/.test(setting)) throw badRequest(`"${setting.slice(0, 100)}" is not a setting name`);
    const key = ident(setting);
    if (value === null) return `alter role ${name} reset ${key}`;
    const values = LIST_SETTINGS.has(setting.toLowerCase()) ? listSettingElements(value) : [value];
    return `alter role ${name} set ${key} to ${values.map(literal).join(', ')}`;
  });
}

/**
 * `create role` with the spec's defaults (inherit, connection limit -1, every other flag off, never
 * superuser), memberships (`in role`, `role`, `admin`), then its settings: one transaction.
 */
export function createRoleStatements(input: RoleCreate): string[] {
  const options = roleOptions(input, {
    inherit_role: true,
    can_login: false,
    can_create_db: false,
    can_create_role: false,
    is_replication_role: false,
    can_bypass_rls: false,
  });
  if (input.member_of?.length) options.push(`in role ${roleList(input.member_of)}`);
  if (input.members?.length) options.push(`role ${roleList(input.members)}`);
  if (input.admins?.length) options.push(`admin ${roleList(input.admins)}`);
  return [`create role ${ident(input.name)} with ${options.join(' ')}`, ...roleConfigStatements(input.name, input.config ?? {})];
}

/** Rename first, then the options and settings of the role under its new name: only what is given. */
export function updateRoleStatements(current: string, update: RoleUpdate): string[] {
  const statements: string[] = [];
  let name = current;
  if (update.name !== undefined && update.name !== current) {
    statements.push(`alter role ${ident(current)} rename to ${ident(update.name)}`);
    name = update.name;
  }
  const options = roleOptions(update);
  if (options.length > 0) statements.push(`alter role ${ident(name)} with ${options.join(' ')}`);
  return [...statements, ...roleConfigStatements(name, roleConfigOf(update.config ?? []))];
}

export const dropRoleStatement = (name: string) => `drop role ${ident(name)}`;

/**
 * Facts about one role that decide whether the dashboard may change it: a superuser, a predefined
 * `pg_` role, a standard role of the platform, or the dashboard's own connection role is refused.
 */
export function roleGuardQuery(id: number): SqlQuery {
  return {
    text: `
select r.rolname as name,
  r.rolsuper or pg_catalog.starts_with(r.rolname, 'pg_') or r.rolname = any($2::text[])
    or r.rolname = current_user or r.rolname = session_user as protected
from pg_catalog.pg_roles r
where r.oid = $1::int8::oid`,
    values: [id, STANDARD_ROLES],
  };
}

/** Superusers among `names`: a role that joins one could become superuser with SET ROLE. */
export function superusersAmongQuery(names: readonly string[]): SqlQuery {
  return { text: 'select rolname as name from pg_catalog.pg_roles where rolsuper and rolname = any($1::text[])', values: [names] };
}

/** One role in postgres-meta's shape (the list query, narrowed to an id or a name). */
export function findRoleQuery(lookup: { id?: number; name?: string }): SqlQuery {
  const list = listRolesQuery({ include_default_roles: true });
  const id = list.values.length + 1;
  return {
    text: `select * from (${list.text}) as role where ($${id}::int8 is null or role.id = $${id}::int8) and ($${id + 1}::text is null or role.name = $${id + 1}::text)`,
    values: [...list.values, lookup.id ?? null, lookup.name ?? null],
  };
}
