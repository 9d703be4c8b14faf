import {
  API_ROLES,
  COLUMN_PRIVILEGE_TYPES,
  STANDARD_ROLES,
  type ColumnPrivilegesListQuery,
  type ColumnPrivilegeType,
  type PgColumnPrivileges,
} from '@dash/contracts';
import { PROJECT_ROLES, projectRoleName, type SqlQuery } from '@dash/service-kit';
import { Params } from './catalog/relations';
import { pageClause, schemaCondition } from './catalog/schema-filter';
import { ident, qualified, type QualifiedName } from './ddl/names';

/*
 * Column privileges: the catalog read from the ACLs themselves (`pg_class.relacl` for the table,
 * `pg_attribute.attacl` for the column, both through aclexplode) so each privilege says where it comes
 * from; and GRANT / REVOKE statements built from quoted names and fixed words.
 */

/** Relation kinds that have column privileges: tables, views, materialized views, foreign and partitioned tables. */
const RELKINDS = ['r', 'v', 'm', 'f', 'p'];

export interface ColumnPrivilegesFilter extends ColumnPrivilegesListQuery {
  /** Only these columns (`{tableId}.{ordinal}`): a write's reply. */
  column_ids?: readonly string[];
}

/**
 * One row per live column in postgres-meta's shape. A grant made both on the table and on the column is
 * one entry with both flags; entries that differ in grantor or grant option stay apart, as in
 * information_schema. No acl means the owner's implicit privileges on the table (acldefault); columns
 * have none by default. Unlike information_schema, grants between roles the connection is no member
 * of are shown too: the dashboard shows what the catalog holds.
 */
export function listColumnPrivilegesQuery(filter: ColumnPrivilegesFilter): SqlQuery {
  const params = new Params();
  const kinds = params.add(RELKINDS);
  const where =
    filter.column_ids !== undefined
      ? `(c.oid::text || '.' || a.attnum) = any(${params.add(filter.column_ids)}::text[])`
      : filter.table_id !== undefined
        ? `c.oid = ${params.add(filter.table_id)}::int8::oid`
        : schemaCondition(params, 'n.nspname', filter);
  const page = pageClause(params, filter);
  return {
    text: `
select
  c.oid::text || '.' || a.attnum as column_id,
  n.nspname as relation_schema,
  c.relname as relation_name,
  a.attname as column_name,
  coalesce((
    select jsonb_agg(jsonb_build_object(
      'grantor', pg_catalog.pg_get_userbyid(g.grantor),
      'grantee', case when g.grantee = 0 then 'PUBLIC' else pg_catalog.pg_get_userbyid(g.grantee) end,
      'privilege_type', g.privilege_type,
      'is_grantable', g.is_grantable,
      'column_level', g.column_level,
      'table_level', g.table_level
    ) order by g.grantee = 0 desc, pg_catalog.pg_get_userbyid(g.grantee), g.privilege_type, pg_catalog.pg_get_userbyid(g.grantor), g.is_grantable)
    from (
      select acl.grantor, acl.grantee, acl.privilege_type, acl.is_grantable,
        bool_or(acl.on_column) as column_level, bool_or(not acl.on_column) as table_level
      from (
        select t.grantor, t.grantee, t.privilege_type, t.is_grantable, false as on_column
        from pg_catalog.aclexplode(coalesce(c.relacl, pg_catalog.acldefault('r', c.relowner))) t
        union all
        select t.grantor, t.grantee, t.privilege_type, t.is_grantable, true
        from pg_catalog.aclexplode(a.attacl) t
      ) acl
      where acl.privilege_type in ('SELECT', 'INSERT', 'UPDATE', 'REFERENCES')
      group by acl.grantor, acl.grantee, acl.privilege_type, acl.is_grantable
    ) g
  ), '[]') as privileges
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
where c.relkind = any(${kinds}::"char"[])
  and ${where}
order by n.nspname, c.relname, a.attnum
${page}`,
    values: params.values,
  };
}

/**
 * Roles that are no grantee a project member picks: the platform's own (`authenticator`,
 * `dashboard_user`, and the logs service's reader).
 */
const PLATFORM_ROLES = [...STANDARD_ROLES.filter((role) => !API_ROLES.includes(role)), 'dash_logs_reader'];

/**
 * The roles the page offers: the API roles first, then the rest by name, without superusers, the
 * predefined `pg_` roles, the platform's roles, the connection's own role and every project's
 * connection roles (`<database>_admin`, `_ro`, `_storage`: roles belong to the whole server).
 */
export function listGranteesQuery(): SqlQuery {
  return {
    text: `
select r.oid::int8 as id, r.rolname as name
from pg_catalog.pg_roles r
where not r.rolsuper
  and not pg_catalog.starts_with(r.rolname, 'pg_')
  and r.rolname <> all($1::text[])
  and r.rolname <> current_user and r.rolname <> session_user
  and not exists (
    select from pg_catalog.pg_database d cross join unnest($2::text[]) as s(suffix)
    where r.rolname = d.datname || s.suffix
  )
order by array_position($3::text[], r.rolname::text), r.rolname`,
    values: [PLATFORM_ROLES, PROJECT_ROLES.map((role) => projectRoleName('', role)), API_ROLES],
  };
}

/** The columns behind ids `{tableId}.{ordinal}`, with their table's name; ids that name no column are missing. */
export function columnsByIdQuery(columns: ReadonlyArray<{ tableId: number; ordinal: number }>): SqlQuery {
  return {
    text: `
select c.oid::text || '.' || a.attnum as id, n.nspname as schema, c.relname as "table", a.attname as name
from unnest($1::int8[], $2::int4[]) as x(table_id, ordinal)
join pg_catalog.pg_attribute a on a.attrelid = x.table_id::oid and a.attnum = x.ordinal and not a.attisdropped
join pg_catalog.pg_class c on c.oid = a.attrelid and c.relkind = any($3::"char"[])
join pg_catalog.pg_namespace n on n.oid = c.relnamespace`,
    values: [columns.map((c) => c.tableId), columns.map((c) => c.ordinal), RELKINDS],
  };
}

export interface ColumnPrivilegeChange {
  table: QualifiedName;
  column: string;
  grantee: string;
  privilege: ColumnPrivilegeType | 'ALL';
  /** Grants only: WITH GRANT OPTION. */
  grantable?: boolean;
}

const PRIVILEGE_WORDS: Record<ColumnPrivilegeChange['privilege'], string> = {
  ALL: 'all',
  SELECT: 'select',
  INSERT: 'insert',
  UPDATE: 'update',
  REFERENCES: 'references',
};

/** PUBLIC (every role) is a keyword, not a role; any other name is quoted, `"Public"` included. */
const granteeSql = (grantee: string) => (grantee === 'PUBLIC' || grantee === 'public' ? 'public' : ident(grantee));

/**
 * The changes as few statements as they allow: one per table, grantee, privilege (and grant option),
 * naming its columns in the order first given, each once.
 */
function groupedStatements(changes: readonly ColumnPrivilegeChange[], statement: (change: ColumnPrivilegeChange, columns: string) => string): string[] {
  const groups = new Map<string, { change: ColumnPrivilegeChange; columns: string[] }>();
  for (const change of changes) {
    const key = JSON.stringify([change.table.schema, change.table.name, change.grantee, change.privilege, change.grantable === true]);
    const group = groups.get(key) ?? { change, columns: [] };
    if (!group.columns.includes(change.column)) group.columns.push(change.column);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ change, columns }) => statement(change, columns.map(ident).join(', ')));
}

/** `grant select ("a", "b") on table "s"."t" to "role" [with grant option]` */
export function grantColumnPrivilegeStatements(changes: readonly ColumnPrivilegeChange[]): string[] {
  return groupedStatements(
    changes,
    (change, columns) =>
      `grant ${PRIVILEGE_WORDS[change.privilege]} (${columns}) on table ${qualified(change.table)} to ${granteeSql(change.grantee)}${change.grantable ? ' with grant option' : ''}`,
  );
}

/**
 * `revoke select ("a") on table "s"."t" from "role"`. It takes back the column's own grant only: a grant
 * on the whole table still covers the column.
 */
export function revokeColumnPrivilegeStatements(changes: readonly ColumnPrivilegeChange[]): string[] {
  return groupedStatements(
    changes.map((change) => ({ ...change, grantable: false })),
    (change, columns) => `revoke ${PRIVILEGE_WORDS[change.privilege]} (${columns}) on table ${qualified(change.table)} from ${granteeSql(change.grantee)}`,
  );
}

/** A change as the routes take it (a grant's grant option does not matter here). */
export interface RequestedChange {
  column_id: string;
  grantee: string;
  privilege_type: ColumnPrivilegeType | 'ALL';
}

/**
 * Why a change did not happen, read from the columns' privileges afterwards; null when every change
 * did. Postgres only warns when a GRANT or REVOKE changes nothing: a role without the grant option
 * grants nothing, and a REVOKE takes back only what its role (or the owner) granted.
 */
export function unappliedChange(changes: readonly RequestedChange[], after: readonly PgColumnPrivileges[], granting: boolean): string | null {
  const columns = new Map(after.map((column) => [column.column_id, column]));
  for (const change of changes) {
    const column = columns.get(change.column_id);
    if (!column) continue;
    const grantee = change.grantee === 'public' ? 'PUBLIC' : change.grantee;
    const types = change.privilege_type === 'ALL' ? COLUMN_PRIVILEGE_TYPES : [change.privilege_type];
    for (const type of types) {
      const held = column.privileges.some((p) => p.grantee === grantee && p.privilege_type === type && p.column_level);
      const where = `column "${column.column_name}" of ${column.relation_schema}.${column.relation_name}`;
      if (granting && !held)
        return `${type} on ${where} was not granted to ${grantee}: only the table's owner, or a role holding it with grant option, may grant it`;
      if (!granting && held) return `${grantee} still holds ${type} on ${where}: only the role that granted it, or the table's owner, may revoke it`;
    }
  }
  return null;
}
