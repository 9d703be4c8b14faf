import type { SqlQuery } from '@dash/service-kit';
import type { SchemaFilterInput } from '../filters';
import { Params } from './relations';
import { pageClause, schemaCondition } from './schema-filter';

export interface IndexListInput extends SchemaFilterInput {
  limit?: number;
  offset?: number;
  /** Only this index (the replies of writes), in any schema. */
  id?: number;
}

/**
 * The indexes of tables and materialized views in postgres-meta's shape (pg_index's flags and arrays,
 * the predicate in Postgres's internal form, the definition), plus the table and index names, key
 * columns (or expressions, as Postgres prints them), size and the number of scans since the statistics
 * were reset. `index_attributes` are the table columns the index covers, in index order.
 */
export function listIndexesQuery(input: IndexListInput): SqlQuery {
  const params = new Params();
  const filter =
    input.id !== undefined ? `i.indexrelid = ${params.add(input.id)}::int8::oid` : schemaCondition(params, 'n.nspname', input);
  const page = input.id !== undefined ? '' : pageClause(params, input);
  return {
    text: `
select
  i.indexrelid::int8 as id,
  i.indrelid::int8 as table_id,
  n.nspname as schema,
  i.indnatts::int as number_of_attributes,
  i.indnkeyatts::int as number_of_key_attributes,
  i.indisunique as is_unique,
  i.indisprimary as is_primary,
  i.indisexclusion as is_exclusion,
  i.indimmediate as is_immediate,
  i.indisclustered as is_clustered,
  i.indisvalid as is_valid,
  i.indcheckxmin as check_xmin,
  i.indisready as is_ready,
  i.indislive as is_live,
  i.indisreplident as is_replica_identity,
  to_json(i.indkey::int2[]) as key_attributes,
  to_json(i.indcollation::oid[]::int8[]) as collation,
  to_json(i.indclass::oid[]::int8[]) as class,
  to_json(i.indoption::int2[]) as options,
  i.indpred::text as index_predicate,
  pg_catalog.obj_description(i.indexrelid, 'pg_catalog.pg_class') as comment,
  pg_catalog.pg_get_indexdef(i.indexrelid) as index_definition,
  am.amname as access_method,
  coalesce((
    select json_agg(json_build_object(
        'attribute_number', a.attnum, 'attribute_name', a.attname, 'data_type', pg_catalog.format_type(a.atttypid, a.atttypmod)
      ) order by k.ord)
    from unnest(i.indkey::int2[]) with ordinality as k(attnum, ord)
    join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
  ), '[]') as index_attributes,
  tc.relname as table,
  ic.relname as name,
  array(select pg_catalog.pg_get_indexdef(i.indexrelid, k, true) from generate_series(1, i.indnkeyatts::int) as k) as columns,
  sz.bytes,
  pg_catalog.pg_size_pretty(sz.bytes) as size,
  coalesce(pg_catalog.pg_stat_get_numscans(i.indexrelid), 0)::int8 as scans
from pg_catalog.pg_index i
join pg_catalog.pg_class ic on ic.oid = i.indexrelid
join pg_catalog.pg_class tc on tc.oid = i.indrelid
join pg_catalog.pg_namespace n on n.oid = tc.relnamespace
join pg_catalog.pg_am am on am.oid = ic.relam
cross join lateral (select pg_catalog.pg_relation_size(i.indexrelid)::int8 as bytes) sz
where tc.relkind in ('r', 'p', 'm') and ${filter}
order by n.nspname, tc.relname, ic.relname
${page}`,
    values: params.values,
  };
}

/** Schema and name of an index; none when there is none. */
export function indexNameQuery(id: number): SqlQuery {
  return {
    text: `
select n.nspname as schema, c.relname as name
from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where c.oid = $1::int8::oid and c.relkind in ('i', 'I')`,
    values: [id],
  };
}

/** The id of an index by schema and name. */
export function indexIdQuery(schema: string, name: string): SqlQuery {
  return {
    text: `
select c.oid::int8 as id from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where n.nspname = $1 and c.relname = $2 and c.relkind in ('i', 'I')`,
    values: [schema, name],
  };
}
