import type { EntitySort } from '@dash/contracts';
import { containsPattern } from './filters';
import { type SqlQuery } from '@dash/service-kit';

export interface ListEntitiesInput {
  schema: string;
  search?: string;
  sort?: EntitySort;
  limit: number;
  offset: number;
}

/**
 * The table editor's entity list: tables, views, materialized views, foreign and partitioned tables of
 * one schema (partitions are left out). Fetches `limit + 1` rows so the caller knows whether more exist.
 * `grouped-alphabetical` groups by type in the contract's order (table, view, foreign table,
 * materialized view, partitioned table), then by name.
 */
export function listEntitiesQuery(input: ListEntitiesInput): SqlQuery {
  const order =
    input.sort === 'grouped-alphabetical'
      ? `array_position(array['r', 'v', 'f', 'm', 'p']::"char"[], c.relkind), c.relname, c.oid`
      : 'c.relname, c.oid';
  return {
    text: `
select
  c.oid::int8 as id,
  n.nspname as schema,
  c.relname as name,
  case c.relkind
    when 'r' then 'table' when 'v' then 'view' when 'm' then 'materialized_view'
    when 'f' then 'foreign_table' else 'partitioned_table'
  end as type,
  pg_catalog.obj_description(c.oid, 'pg_class') as comment
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where n.nspname = $1
  and c.relkind in ('r', 'v', 'm', 'f', 'p')
  and not c.relispartition
  and ($2::text is null or c.relname ilike $2::text)
order by ${order}
limit $3::int8 offset $4::int8`,
    values: [input.schema, containsPattern(input.search), input.limit + 1, input.offset],
  };
}
