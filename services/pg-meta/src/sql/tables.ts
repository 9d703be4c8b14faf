import { schemaFilter, TEMP_SCHEMA_REGEX, type SchemaFilterInput } from './filters';
import type { SqlQuery } from './query';

export interface ListTablesInput extends SchemaFilterInput {
  limit?: number;
  offset?: number;
}

/**
 * postgres-meta's table list. The schema filter and paging run first over pg_class alone, so sizes
 * and statistics are only computed for the page returned, even with thousands of tables.
 */
export function listTablesQuery(input: ListTablesInput): SqlQuery {
  const { include, exclude } = schemaFilter(input);
  return {
    text: `
with page as (
  select c.oid, n.nspname, c.relname, c.relrowsecurity, c.relforcerowsecurity, c.relreplident
  from pg_catalog.pg_class c
  join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p')
    and n.nspname !~ $1
    and ($2::text[] is null or n.nspname = any($2::text[]))
    and n.nspname <> all($3::text[])
  order by n.nspname, c.relname
  limit $4::int8 offset $5::int8
)
select
  p.oid::int8 as id,
  p.nspname as schema,
  p.relname as name,
  p.relrowsecurity as rls_enabled,
  p.relforcerowsecurity as rls_forced,
  case p.relreplident when 'd' then 'DEFAULT' when 'i' then 'INDEX' when 'f' then 'FULL' else 'NOTHING' end
    as replica_identity,
  pg_catalog.pg_total_relation_size(p.oid)::int8 as bytes,
  pg_catalog.pg_size_pretty(pg_catalog.pg_total_relation_size(p.oid)) as size,
  pg_catalog.pg_stat_get_live_tuples(p.oid)::int8 as live_rows_estimate,
  pg_catalog.pg_stat_get_dead_tuples(p.oid)::int8 as dead_rows_estimate,
  pg_catalog.obj_description(p.oid, 'pg_class') as comment
from page p
order by p.nspname, p.relname`,
    values: [TEMP_SCHEMA_REGEX, include, exclude, input.limit ?? null, input.offset ?? 0],
  };
}
