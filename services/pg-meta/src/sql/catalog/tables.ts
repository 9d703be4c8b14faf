
import { type SqlQuery } from '@dash/service-kit';
/**
 * postgres-meta's tables by id (from `relationIdsQuery`): ordinary and partitioned tables with sizes,
 * statistics and primary keys, each read per table through the catalogs' indexes. Relationships and
 * columns come from `relationshipsQuery` and `listColumnsQuery` for the same ids.
 */
export function tablesByIdQuery(ids: readonly number[]): SqlQuery {
  return {
    text: `
select
  c.oid::int8 as id,
  n.nspname as schema,
  c.relname as name,
  pg_catalog.obj_description(c.oid, 'pg_class') as comment,
  c.relrowsecurity as rls_enabled,
  c.relforcerowsecurity as rls_forced,
  case c.relreplident when 'd' then 'DEFAULT' when 'i' then 'INDEX' when 'f' then 'FULL' else 'NOTHING' end
    as replica_identity,
  sz.bytes,
  pg_catalog.pg_size_pretty(sz.bytes) as size,
  pg_catalog.pg_stat_get_live_tuples(c.oid)::int8 as live_rows_estimate,
  pg_catalog.pg_stat_get_dead_tuples(c.oid)::int8 as dead_rows_estimate,
  coalesce((
    select json_agg(json_build_object('schema', n.nspname, 'table_name', c.relname, 'name', a.attname, 'table_id', c.oid::int8)
      order by k.ord)
    from pg_catalog.pg_index i
    cross join lateral unnest(i.indkey::int2[]) with ordinality as k(attnum, ord)
    join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
    where i.indrelid = c.oid and i.indisprimary and k.ord <= i.indnkeyatts
  ), '[]') as primary_keys
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
cross join lateral (select pg_catalog.pg_total_relation_size(c.oid)::int8 as bytes) sz
where c.oid = any($1::oid[]) and c.relkind in ('r', 'p')
order by n.nspname, c.relname`,
    values: [ids],
  };
}

/** pg_constraint's foreign-key action codes, as postgres-meta names them. */
const fkAction = (column: string) => `case ${column} when 'a' then 'NO ACTION' when 'r' then 'RESTRICT' when 'c' then 'CASCADE'
      when 'n' then 'SET NULL' else 'SET DEFAULT' end`;

/**
 * The foreign keys from or to any of the tables, one row per column pair, with `source_id` and
 * `target_id` to hand each to the tables on both ends. The ids are a constant array, so the one scan
 * of pg_constraint matches them by hash.
 */
export function relationshipsQuery(ids: readonly number[]): SqlQuery {
  return {
    text: `
select
  con.conrelid::int8 as source_id,
  con.confrelid::int8 as target_id,
  con.oid::int8 as id,
  con.conname as constraint_name,
  sn.nspname as source_schema,
  sc.relname as source_table_name,
  sa.attname as source_column_name,
  tn.nspname as target_table_schema,
  tc.relname as target_table_name,
  ta.attname as target_column_name,
  ${fkAction('con.confdeltype')} as deletion_action,
  ${fkAction('con.confupdtype')} as update_action
from pg_catalog.pg_constraint con
cross join lateral unnest(con.conkey, con.confkey) with ordinality as k(source_attnum, target_attnum, ord)
join pg_catalog.pg_class sc on sc.oid = con.conrelid
join pg_catalog.pg_namespace sn on sn.oid = sc.relnamespace
join pg_catalog.pg_attribute sa on sa.attrelid = con.conrelid and sa.attnum = k.source_attnum
join pg_catalog.pg_class tc on tc.oid = con.confrelid
join pg_catalog.pg_namespace tn on tn.oid = tc.relnamespace
join pg_catalog.pg_attribute ta on ta.attrelid = con.confrelid and ta.attnum = k.target_attnum
where con.contype = 'f' and (con.conrelid = any($1::oid[]) or con.confrelid = any($1::oid[]))
order by con.conname, con.oid, k.ord`,
    values: [ids],
  };
}
