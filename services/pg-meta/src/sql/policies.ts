import { schemaFilter, TEMP_SCHEMA_REGEX, type SchemaFilterInput } from './filters';
import type { SqlQuery } from './query';

/** postgres-meta's policy list: one row per pg_policy entry. Role 0 in polroles is `public`. */
export function listPoliciesQuery(input: SchemaFilterInput): SqlQuery {
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
order by n.nspname, c.relname, pol.polname`,
    values: [TEMP_SCHEMA_REGEX, include, exclude],
  };
}
