
import { type SqlQuery } from '@dash/service-kit';
export interface ListRolesInput {
  include_default_roles?: boolean;
  limit?: number;
  offset?: number;
}

/**
 * postgres-meta's role list, with its field names. Predefined roles (every name starting with `pg_`, a
 * reserved prefix) are left out unless asked for. The password is never read: it is always
 * `********`. `valid_until` is the timestamp as Postgres prints it (`2030-01-02 03:04:05+00`,
 * `infinity`), as postgres-meta's reply has it.
 */
export function listRolesQuery(input: ListRolesInput): SqlQuery {
  return {
    text: `
select
  r.oid::int8 as id,
  r.rolname as name,
  r.rolsuper as is_superuser,
  r.rolcreatedb as can_create_db,
  r.rolcreaterole as can_create_role,
  r.rolinherit as inherit_role,
  r.rolcanlogin as can_login,
  r.rolreplication as is_replication_role,
  r.rolbypassrls as can_bypass_rls,
  (select count(*) from pg_catalog.pg_stat_activity s where s.usesysid = r.oid)::int8 as active_connections,
  case when r.rolconnlimit = -1 then current_setting('max_connections')::int8 else r.rolconnlimit end
    as connection_limit,
  '********' as password,
  r.rolvaliduntil::text as valid_until,
  case when r.rolconfig is not null then (
    select json_object_agg(split_part(setting, '=', 1), substr(setting, strpos(setting, '=') + 1))
    from unnest(r.rolconfig) as setting
  ) end as config
from pg_catalog.pg_roles r
where $1::boolean or not pg_catalog.starts_with(r.rolname, 'pg_')
order by r.rolname
limit $2::int8 offset $3::int8`,
    values: [input.include_default_roles === true, input.limit ?? null, input.offset ?? 0],
  };
}
