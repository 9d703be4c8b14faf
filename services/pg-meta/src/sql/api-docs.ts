import type { SqlQuery } from '@dash/service-kit';

/*
 * The API docs' catalog reads: the tables and views of one schema with their columns, and the functions
 * the REST API can call (`/rpc/{name}`): plain functions that are not part of an extension and take no
 * pseudo-type. The schema is a parameter.
 */

export function apiDocsTablesQuery(schema: string): SqlQuery {
  return {
    text: `
select c.relname as name,
  case when c.relkind in ('v', 'm') then 'view' else 'table' end as kind,
  pg_catalog.obj_description(c.oid, 'pg_class') as comment,
  coalesce((
    select json_agg(json_build_object(
      'name', a.attname,
      'format', pg_catalog.format_type(a.atttypid, a.atttypmod),
      'required', a.attnotnull and d.adbin is null and a.attidentity = '' and a.attgenerated = '',
      'nullable', not a.attnotnull,
      'default_value', pg_catalog.pg_get_expr(d.adbin, d.adrelid),
      'comment', pg_catalog.col_description(c.oid, a.attnum),
      'primary_key', exists (select 1 from pg_catalog.pg_index i where i.indrelid = c.oid and i.indisprimary and a.attnum = any (i.indkey))
    ) order by a.attnum)
    from pg_catalog.pg_attribute a
    left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  ), '[]'::json) as columns
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'f')
order by c.relname`,
    values: [schema],
  };
}

/** Input arguments (modes in, inout, variadic) in order, numbered among themselves for their defaults. */
const INPUT_ARGUMENTS = `
  select x.name, x.type, row_number() over (order by x.ord) as position
  from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]), coalesce(p.proargmodes, array[]::"char"[]), coalesce(p.proargnames, array[]::text[]))
    with ordinality as x(type, mode, name, ord)
  where x.type is not null and coalesce(x.mode, 'i') in ('i', 'b', 'v')`;

export function apiDocsFunctionsQuery(schema: string): SqlQuery {
  return {
    text: `
select p.proname as name,
  coalesce((
    select json_agg(json_build_object('name', a.name, 'format', pg_catalog.format_type(a.type, null),
      'has_default', a.position > p.pronargs - p.pronargdefaults) order by a.position)
    from (${INPUT_ARGUMENTS}) a where coalesce(a.name, '') <> ''
  ), '[]'::json) as arguments,
  pg_catalog.format_type(p.prorettype, null) as return_type,
  p.proretset as returns_set,
  case p.provolatile when 'i' then 'immutable' when 's' then 'stable' else 'volatile' end as volatility,
  pg_catalog.obj_description(p.oid, 'pg_proc') as comment
from pg_catalog.pg_proc p
join pg_catalog.pg_namespace n on n.oid = p.pronamespace
where n.nspname = $1 and p.prokind = 'f'
  and p.prorettype not in ('pg_catalog.trigger'::regtype, 'pg_catalog.event_trigger'::regtype, 'pg_catalog.internal'::regtype)
  and not exists (select 1 from pg_catalog.pg_depend d where d.objid = p.oid and d.classid = 'pg_catalog.pg_proc'::regclass and d.deptype = 'e')
  and not exists (select 1 from unnest(p.proargtypes) t join pg_catalog.pg_type ty on ty.oid = t where ty.typtype = 'p' and ty.typname <> 'record')
order by p.proname, p.oid`,
    values: [schema],
  };
}

export const schemaExistsQuery = (schema: string): SqlQuery => ({
  text: 'select exists (select 1 from pg_catalog.pg_namespace where nspname = $1) as exists',
  values: [schema],
});
