
import { type SqlQuery } from '@dash/service-kit';
/**
 * Everything the definition view shows of one relation (table, partitioned table, partition, view,
 * materialized view or foreign table), read from the catalog. Postgres prints the parts that are
 * expressions (defaults, constraints, index definitions, view queries, partition bounds, policy
 * expressions); names stay raw and are quoted by the builder.
 */
export function relationDefinitionQuery(id: number): SqlQuery {
  return {
    text: `
select
  c.oid::int8 as id,
  n.nspname as schema,
  c.relname as name,
  c.relkind::text as kind,
  pg_catalog.obj_description(c.oid, 'pg_class') as comment,
  c.relrowsecurity as rls_enabled,
  c.relforcerowsecurity as rls_forced,
  case when c.relkind in ('v', 'm') then pg_catalog.pg_get_viewdef(c.oid, true) end as view_query,
  case when c.relkind = 'p' then pg_catalog.pg_get_partkeydef(c.oid) end as partition_key,
  case when c.relispartition then (
    select json_build_object('schema', pn.nspname, 'name', pc.relname)
    from pg_catalog.pg_inherits inh
    join pg_catalog.pg_class pc on pc.oid = inh.inhparent
    join pg_catalog.pg_namespace pn on pn.oid = pc.relnamespace
    where inh.inhrelid = c.oid
  ) end as partition_of,
  case when c.relispartition then pg_catalog.pg_get_expr(c.relpartbound, c.oid) end as partition_bound,
  (
    select fs.srvname from pg_catalog.pg_foreign_table ft
    join pg_catalog.pg_foreign_server fs on fs.oid = ft.ftserver
    where ft.ftrelid = c.oid
  ) as foreign_server,
  coalesce((
    select json_agg(json_build_object(
      'name', a.attname,
      'type', pg_catalog.format_type(a.atttypid, a.atttypmod),
      'default', case when a.atthasdef and a.attgenerated = '' then pg_catalog.pg_get_expr(ad.adbin, ad.adrelid) end,
      'generated', case when a.attgenerated = 's' then pg_catalog.pg_get_expr(ad.adbin, ad.adrelid) end,
      'identity', case a.attidentity when 'a' then 'always' when 'd' then 'by default' end,
      'not_null', a.attnotnull,
      'collation', case when a.attcollation <> 0 and a.attcollation <> t.typcollation then (
        select json_build_object('schema', cn.nspname, 'name', co.collname)
        from pg_catalog.pg_collation co join pg_catalog.pg_namespace cn on cn.oid = co.collnamespace
        where co.oid = a.attcollation
      ) end,
      'comment', pg_catalog.col_description(c.oid, a.attnum)
    ) order by a.attnum)
    from pg_catalog.pg_attribute a
    join pg_catalog.pg_type t on t.oid = a.atttypid
    left join pg_catalog.pg_attrdef ad on ad.adrelid = a.attrelid and ad.adnum = a.attnum
    where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  ), '[]') as columns,
  coalesce((
    select json_agg(json_build_object('name', con.conname, 'definition', pg_catalog.pg_get_constraintdef(con.oid, true))
      order by array_position(array['p', 'u', 'f', 'c', 'x']::"char"[], con.contype), con.conname)
    from pg_catalog.pg_constraint con
    where con.conrelid = c.oid and con.conislocal and con.contype in ('p', 'u', 'f', 'c', 'x')
  ), '[]') as constraints,
  coalesce((
    select json_agg(pg_catalog.pg_get_indexdef(i.indexrelid) order by ic.relname)
    from pg_catalog.pg_index i
    join pg_catalog.pg_class ic on ic.oid = i.indexrelid
    where i.indrelid = c.oid and not exists (
      select 1 from pg_catalog.pg_constraint con
      where con.conindid = i.indexrelid and con.conrelid = c.oid and con.contype in ('p', 'u', 'x')
    )
  ), '[]') as indexes,
  coalesce((
    select json_agg(json_build_object(
      'name', pol.polname,
      'permissive', pol.polpermissive,
      'command', pol.polcmd::text,
      'roles', array(
        select case when r.oid = 0 then null else pg_catalog.pg_get_userbyid(r.oid)::text end
        from unnest(pol.polroles) with ordinality as r(oid, ord) order by r.ord
      ),
      'using', pg_catalog.pg_get_expr(pol.polqual, pol.polrelid),
      'check', pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid)
    ) order by pol.polname)
    from pg_catalog.pg_policy pol
    where pol.polrelid = c.oid
  ), '[]') as policies
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where c.oid = $1::oid and c.relkind in ('r', 'p', 'v', 'm', 'f')`,
    values: [id],
  };
}
