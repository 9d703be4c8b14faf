import { Params, relationsCte, type RelationFilter } from './relations';
import { type SqlQuery } from '@dash/service-kit';

/**
 * One row per live column of the relations in the CTE named `rel` (from `relationsCte`, with `relowner`), in
 * postgres-meta's column shape plus `nspname` and `relname` for ordering.
 *
 * Cost grows with the relations asked for, not with the database: unique indexes, checks, comments
 * and security labels are read once per relation through the catalogs' indexes (a lateral lookup
 * driven by `rel`), defaults only for columns that have one, enum labels only for enum columns. No
 * catalog is joined against the whole set of relations: on catalogs that just changed, the planner's
 * estimates for such joins are wrong enough to pick nested loops over thousands of rows.
 *
 * - `is_unique`: a single-column unique index (a unique constraint's or a standalone one), neither
 *   partial nor on an expression; the primary key does not count.
 * - `check`: the first single-column CHECK constraint's expression, printed as pg_get_constraintdef's
 *   pretty form prints it (without the outer parentheses).
 * - `enums`: the labels of an enum type, or of an array of enums, in order.
 * - `is_encrypted`: a pgsodium security label starting with ENCRYPT on the column.
 */
function columnsSelect(rel: string, ordinal?: string): string {
  return `
select
  r.nspname,
  r.relname,
  r.oid::text || '.' || a.attnum as id,
  r.oid::int8 as table_id,
  r.nspname as schema,
  r.relname as "table",
  a.attnum::int as ordinal_position,
  a.attname as name,
  case when a.atthasdef then (
    select pg_catalog.pg_get_expr(ad.adbin, ad.adrelid) from pg_catalog.pg_attrdef ad
    where ad.adrelid = r.oid and ad.adnum = a.attnum
  ) end as default_value,
  case
    when bt.oid is not null then
      case
        when bt.typelem <> 0 and bt.typlen = -1 then 'ARRAY'
        when bt.typnamespace = 'pg_catalog'::regnamespace then pg_catalog.format_type(t.typbasetype, null)
        else 'USER-DEFINED'
      end
    when t.typelem <> 0 and t.typlen = -1 then 'ARRAY'
    when t.typnamespace = 'pg_catalog'::regnamespace then pg_catalog.format_type(a.atttypid, null)
    else 'USER-DEFINED'
  end as data_type,
  coalesce(bt.typname, t.typname)::text as format,
  a.attidentity in ('a', 'd') as is_identity,
  case a.attidentity when 'a' then 'ALWAYS' when 'd' then 'BY DEFAULT' end as identity_generation,
  a.attgenerated <> '' as is_generated,
  not (a.attnotnull or (t.typtype = 'd' and t.typnotnull)) as is_nullable,
  case
    when r.relkind in ('r', 'p') then true
    when r.relkind = 'v' then pg_catalog.pg_column_is_updatable(r.oid, a.attnum, false)
    -- Asking a foreign table whose wrapper has no handler raises an error: such a table is read-only.
    when r.relkind = 'f' and meta.fdw_handler then pg_catalog.pg_column_is_updatable(r.oid, a.attnum, false)
    else false
  end as is_updatable,
  a.attnum = any(meta.unique_attnums) as is_unique,
  case when coalesce(bt.typtype, t.typtype) = 'e' or et.oid is not null then array(
    select e.enumlabel::text from pg_catalog.pg_enum e
    where e.enumtypid = coalesce(et.oid, bt.oid, t.oid)
    order by e.enumsortorder
  ) else '{}' end as enums,
  ck.expr as "check",
  meta.comments ->> a.attnum::text as comment,
  a.attnum = any(meta.encrypted_attnums) as is_encrypted
from ${rel} r
cross join lateral (
  select
    array(
      select i.indkey[0] from pg_catalog.pg_index i
      where i.indrelid = r.oid and i.indisunique and not i.indisprimary and i.indnkeyatts = 1
        and i.indpred is null and i.indexprs is null
    ) as unique_attnums,
    -- The first check of a column wins: the lowest oid comes last, and a later duplicate key replaces.
    coalesce((
      select jsonb_object_agg(con.conkey[1], pg_catalog.pg_get_expr(con.conbin, con.conrelid, true) order by con.oid desc)
      from pg_catalog.pg_constraint con
      where con.conrelid = r.oid and con.contype = 'c' and cardinality(con.conkey) = 1
    ), '{}') as checks,
    coalesce((
      select jsonb_object_agg(d.objsubid, d.description) from pg_catalog.pg_description d
      where d.objoid = r.oid and d.classoid = 'pg_catalog.pg_class'::regclass and d.objsubid > 0
    ), '{}') as comments,
    array(
      select sl.objsubid from pg_catalog.pg_seclabel sl
      where sl.objoid = r.oid and sl.classoid = 'pg_catalog.pg_class'::regclass and sl.objsubid > 0
        and sl.provider = 'pgsodium' and sl.label like 'ENCRYPT%'
    ) as encrypted_attnums,
    pg_catalog.pg_has_role(r.relowner, 'USAGE') as owned,
    r.relkind = 'f' and exists (
      select 1 from pg_catalog.pg_foreign_table ft
      join pg_catalog.pg_foreign_server fs on fs.oid = ft.ftserver
      join pg_catalog.pg_foreign_data_wrapper w on w.oid = fs.srvfdw
      where ft.ftrelid = r.oid and w.fdwhandler <> 0
    ) as fdw_handler
  -- A fence: without it the planner inlines these lookups into every column that uses them.
  offset 0
) meta
join pg_catalog.pg_attribute a on a.attrelid = r.oid and a.attnum > 0 and not a.attisdropped${ordinal ? ` and a.attnum = ${ordinal}::int2` : ''}
  -- Columns the connection's role may use, as postgres-meta lists them.
  and (meta.owned or pg_catalog.has_column_privilege(r.oid, a.attnum, 'SELECT, INSERT, UPDATE, REFERENCES'))
join pg_catalog.pg_type t on t.oid = a.atttypid
left join pg_catalog.pg_type bt on t.typtype = 'd' and bt.oid = t.typbasetype
left join pg_catalog.pg_type et on et.oid = coalesce(bt.typelem, t.typelem) and et.typtype = 'e'
cross join lateral (select meta.checks ->> a.attnum::text as expr offset 0) ck`;
}

export interface ListColumnsInput {
  included_schemas?: string;
  excluded_schemas?: string;
  include_system_schemas?: boolean;
  /** Only the columns of these relations (`table_id`, or the page of a relation list). */
  table_ids?: readonly number[];
  /** One column of the relation (with one `table_ids`). */
  ordinal?: number;
  limit?: number;
  offset?: number;
}

/**
 * postgres-meta's column list over tables, views, materialized views, foreign and partitioned tables.
 * The relations are filtered first (schemas, ids); the page applies to columns.
 */
export function listColumnsQuery(input: ListColumnsInput): SqlQuery {
  const params = new Params();
  const filter: RelationFilter = {
    kind: 'any',
    included_schemas: input.included_schemas,
    excluded_schemas: input.excluded_schemas,
    include_system_schemas: input.include_system_schemas,
    ...(input.table_ids !== undefined ? { ids: input.table_ids } : {}),
  };
  const rel = relationsCte(params, filter, ['relowner']);
  const ordinal = input.ordinal !== undefined ? params.add(input.ordinal) : undefined;
  const limit = params.add(input.limit ?? null);
  const offset = params.add(input.offset ?? 0);
  return {
    text: `
with rel as (${rel}
),
cols as (${columnsSelect('rel', ordinal)}
)
select c.id, c.table_id, c.schema, c."table", c.ordinal_position, c.name, c.default_value, c.data_type, c.format,
  c.is_identity, c.identity_generation, c.is_generated, c.is_nullable, c.is_updatable, c.is_unique, c.enums,
  c."check", c.comment, c.is_encrypted
from cols c
order by c.nspname, c.relname, c.ordinal_position
limit ${limit}::int8 offset ${offset}::int8`,
    values: params.values,
  };
}
