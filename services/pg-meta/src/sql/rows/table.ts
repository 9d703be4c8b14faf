import { UNDEFINED_COLUMN } from '@dash/contracts';
import { badRequest, type SqlQuery } from '@dash/service-kit';

/** A column as the row builders need it: how to quote, compare, cut and cast its values. */
export interface RowColumn {
  name: string;
  /** `format_type` of the column (`integer`, `character varying(20)`, `text[]`, `public."My type"`). */
  type: string;
  /** The type's name, or its base type's for a domain (`int4`, `jsonb`, `_text`). */
  typname: string;
  /** pg_type.typcategory: `S` string, `A` array, `N` numeric, `B` boolean, `U` user... */
  category: string;
  /** GENERATED ALWAYS AS (...) STORED. */
  generated: boolean;
  /** pg_attribute.attidentity: '' none, 'a' ALWAYS, 'd' BY DEFAULT. */
  identity: '' | 'a' | 'd';
  /** A pgsodium `ENCRYPT WITH KEY ...` security label is on the column. */
  encrypted: boolean;
}

export interface TableMeta {
  id: number;
  schema: string;
  name: string;
  /** pg_class.relkind: r table, p partitioned, v view, m materialized view, f foreign table. */
  kind: string;
  columns: RowColumn[];
  /** Primary-key column names, in key order; empty when the table has none. */
  primaryKey: string[];
}

/** The largest oid; a larger table id cannot exist. */
export const MAX_OID = 4_294_967_295;

/**
 * Everything the row routes need about one relation, in one catalog lookup by oid: its columns with
 * their types (domains resolved to their base type's name and category), generated/identity flags,
 * pgsodium labels, and the primary key in key order.
 */
export function tableMetaQuery(id: number): SqlQuery {
  return {
    text: `
select c.oid::int8 as id, n.nspname as schema, c.relname as name, c.relkind::text as kind,
  coalesce((
    select json_agg(json_build_object(
      'name', a.attname,
      'type', pg_catalog.format_type(a.atttypid, a.atttypmod),
      'typname', coalesce(b.typname, t.typname),
      'category', t.typcategory,
      'generated', a.attgenerated <> '',
      'identity', a.attidentity,
      'encrypted', exists (
        select 1 from pg_catalog.pg_seclabel l
        where l.classoid = 'pg_catalog.pg_class'::regclass and l.objoid = c.oid and l.objsubid = a.attnum
          and l.provider = 'pgsodium' and l.label ilike 'ENCRYPT%')
    ) order by a.attnum)
    from pg_catalog.pg_attribute a
    join pg_catalog.pg_type t on t.oid = a.atttypid
    left join pg_catalog.pg_type b on t.typtype = 'd' and b.oid = t.typbasetype
    where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  ), '[]') as columns,
  coalesce((
    select json_agg(a.attname order by k.ord)
    from pg_catalog.pg_index i
    cross join unnest(i.indkey::int2[]) with ordinality as k(attnum, ord)
    join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
    where i.indrelid = c.oid and i.indisprimary
  ), '[]') as primary_key
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where c.oid = $1::int8::oid and c.relkind in ('r', 'p', 'v', 'm', 'f')`,
    values: [id],
  };
}

export interface TableMetaRow {
  id: number | string;
  schema: string;
  name: string;
  kind: string;
  columns: RowColumn[];
  primary_key: string[];
}

export function toTableMeta(row: TableMetaRow): TableMeta {
  return { id: Number(row.id), schema: row.schema, name: row.name, kind: row.kind, columns: row.columns, primaryKey: row.primary_key };
}

/** The table's column of that name; an unknown name is the client's mistake. */
export function columnOf(table: TableMeta, name: string): RowColumn {
  const column = table.columns.find((c) => c.name === name);
  if (!column) throw badRequest(`Column "${name}" does not exist on table "${table.schema}"."${table.name}"`, UNDEFINED_COLUMN);
  return column;
}

export const isJsonColumn = (c: RowColumn) => c.typname === 'json' || c.typname === 'jsonb';
export const isArrayColumn = (c: RowColumn) => c.category === 'A';
/** Text types (text, varchar, char, name, citext...): the empty string is a value of theirs, not NULL. */
export const isTextColumn = (c: RowColumn) => c.category === 'S';
/** Cells that can grow without bound and are cut in a page of rows. */
export const isLongColumn = (c: RowColumn) => isTextColumn(c) || isArrayColumn(c) || isJsonColumn(c) || c.typname === 'bytea';
