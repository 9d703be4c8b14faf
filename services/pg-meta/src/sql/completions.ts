import type { SqlQuery } from '@dash/service-kit';

/*
 * The SQL editor's completion catalog: what the user may name in a query, read as the project admin role.
 * System schemas (pg_catalog, information_schema, pg_toast, the per-session pg_temp_N and pg_toast_temp_N,
 * and anything else under the reserved `pg_` prefix) are left out. Three small queries, run in parallel.
 */

/** `$1` of every catalog query: schemas whose names are never offered (the `pg_` prefix is matched apart). */
const HIDDEN_SCHEMAS = ['information_schema'];

/** A schema the user may name: not information_schema, and not under Postgres's reserved `pg_` prefix. */
const visibleSchema = (nspname: string) => `${nspname} <> all($1::text[]) and ${nspname} not like 'pg\\_%'`;

export function completionSchemasQuery(): SqlQuery {
  return {
    text: `
select n.nspname as name
from pg_catalog.pg_namespace n
where ${visibleSchema('n.nspname')}
order by n.nspname`,
    values: [HIDDEN_SCHEMAS],
  };
}

/**
 * Tables (plain and partitioned), views, materialized views and foreign tables with their columns in
 * attnum order, each column's type as `format_type` spells it. Views and materialized views are `view`,
 * the others `table` (the contract's two kinds).
 */
export function completionRelationsQuery(): SqlQuery {
  return {
    text: `
select n.nspname as schema,
       c.relname as name,
       case when c.relkind in ('v', 'm') then 'view' else 'table' end as kind,
       coalesce(
         (select json_agg(json_build_object('name', a.attname, 'type', pg_catalog.format_type(a.atttypid, a.atttypmod))
                          order by a.attnum)
          from pg_catalog.pg_attribute a
          where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped),
         '[]'::json) as columns
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where c.relkind in ('r', 'p', 'v', 'm', 'f')
  and ${visibleSchema('n.nspname')}
order by n.nspname, c.relname`,
    values: [HIDDEN_SCHEMAS],
  };
}

/**
 * Functions and procedures (aggregates left out) with their identity arguments and result type; those an
 * extension owns (pg_depend type `e`) are left out, as the user did not write them. A procedure has no
 * result type: `void`.
 */
export function completionFunctionsQuery(): SqlQuery {
  return {
    text: `
select n.nspname as schema,
       p.proname as name,
       pg_catalog.pg_get_function_identity_arguments(p.oid) as args,
       coalesce(pg_catalog.pg_get_function_result(p.oid), 'void') as returns
from pg_catalog.pg_proc p
join pg_catalog.pg_namespace n on n.oid = p.pronamespace
where p.prokind <> 'a'
  and ${visibleSchema('n.nspname')}
  and not exists (
    select 1 from pg_catalog.pg_depend d
    where d.classid = 'pg_catalog.pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
order by n.nspname, p.proname, args`,
    values: [HIDDEN_SCHEMAS],
  };
}
