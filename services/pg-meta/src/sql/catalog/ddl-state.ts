
import { type SqlQuery } from '@dash/service-kit';
/*
 * What the DDL routes read before they write: the names of a table or column by id, the table's
 * primary key, and the constraints and indexes on a column. They run inside the write's transaction.
 */

/** Schema and name of an ordinary or partitioned table. */
export function tableNameQuery(id: number): SqlQuery {
  return {
    text: `
select n.nspname as schema, c.relname as name
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where c.oid = $1::oid and c.relkind in ('r', 'p')`,
    values: [id],
  };
}

/** A table's oid by schema and name (after CREATE TABLE). */
export function tableIdQuery(schema: string, name: string): SqlQuery {
  return {
    text: `
select c.oid::int8 as id
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where n.nspname = $1 and c.relname = $2`,
    values: [schema, name],
  };
}

/** A column's ordinal by table and name (after ADD COLUMN or a rename). */
export function columnOrdinalQuery(tableId: number, name: string): SqlQuery {
  return {
    text: `select a.attnum::int as ordinal from pg_catalog.pg_attribute a where a.attrelid = $1::oid and a.attname = $2 and not a.attisdropped`,
    values: [tableId, name],
  };
}

/** The primary key of a table as `{ name, columns }` (columns in key order), or no row. */
const PRIMARY_KEY = `
  select json_build_object('name', con.conname, 'columns', array(
    select att.attname::text
    from unnest(con.conkey) with ordinality as k(attnum, ord)
    join pg_catalog.pg_attribute att on att.attrelid = con.conrelid and att.attnum = k.attnum
    order by k.ord
  ))
  from pg_catalog.pg_constraint con
  where con.conrelid = c.oid and con.contype = 'p'`;

export function primaryKeyQuery(tableId: number): SqlQuery {
  return {
    text: `select (${PRIMARY_KEY}) as primary_key from pg_catalog.pg_class c where c.oid = $1::oid`,
    values: [tableId],
  };
}

/**
 * A column of an ordinary or partitioned table with what an update must know: its type, default,
 * identity, the table's primary key, and the single-column unique, check and foreign-key constraints
 * and standalone unique indexes on it (by name).
 */
export function columnStateQuery(tableId: number, ordinal: number): SqlQuery {
  return {
    text: `
select
  n.nspname as schema,
  c.relname as "table",
  a.attname as name,
  t.typname::text as format,
  a.atthasdef as has_default,
  a.attidentity <> '' as is_identity,
  (${PRIMARY_KEY}) as primary_key,
  array(
    select con.conname::text from pg_catalog.pg_constraint con
    where con.conrelid = c.oid and con.contype = 'u' and con.conkey = array[a.attnum]
    order by con.conname
  ) as unique_constraints,
  coalesce((
    select json_agg(json_build_object('schema', ixn.nspname, 'name', ix.relname) order by ix.relname)
    from pg_catalog.pg_index i
    join pg_catalog.pg_class ix on ix.oid = i.indexrelid
    join pg_catalog.pg_namespace ixn on ixn.oid = ix.relnamespace
    where i.indrelid = c.oid and i.indisunique and not i.indisprimary and i.indnkeyatts = 1
      and i.indkey[0] = a.attnum and i.indpred is null and i.indexprs is null
      and not exists (select 1 from pg_catalog.pg_constraint con where con.conindid = i.indexrelid and con.conrelid = c.oid)
  ), '[]') as unique_indexes,
  array(
    select con.conname::text from pg_catalog.pg_constraint con
    where con.conrelid = c.oid and con.contype = 'c' and con.conkey = array[a.attnum]
    order by con.conname
  ) as check_constraints,
  array(
    select con.conname::text from pg_catalog.pg_constraint con
    where con.conrelid = c.oid and con.contype = 'f' and con.conkey = array[a.attnum]
    order by con.conname
  ) as foreign_keys
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum = $2::int2 and not a.attisdropped
join pg_catalog.pg_type t on t.oid = a.atttypid
where c.oid = $1::oid and c.relkind in ('r', 'p')`,
    values: [tableId, ordinal],
  };
}
