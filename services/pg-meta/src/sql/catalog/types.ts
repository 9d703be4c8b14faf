import type { SqlQuery } from '@dash/service-kit';
import type { SchemaFilterInput } from '../filters';
import { Params } from './relations';
import { pageClause, schemaCondition } from './schema-filter';

export interface TypeListInput extends SchemaFilterInput {
  include_array_types?: boolean;
  limit?: number;
  offset?: number;
  /** Only this type (the replies of writes), in any schema. */
  id?: number;
}

/**
 * postgres-meta's types: every type but the row types of tables, views and the like (standalone
 * composite types stay, with their attributes) and, unless asked for, array types. Enums carry their
 * labels in order.
 */
export function listTypesQuery(input: TypeListInput): SqlQuery {
  const params = new Params();
  const filter =
    input.id !== undefined ? `t.oid = ${params.add(input.id)}::int8::oid` : schemaCondition(params, 'n.nspname', input);
  const page = input.id !== undefined ? '' : pageClause(params, input);
  return {
    text: `
select
  t.oid::int8 as id,
  t.typname as name,
  n.nspname as schema,
  pg_catalog.format_type(t.oid, null) as format,
  coalesce((select json_agg(e.enumlabel order by e.enumsortorder) from pg_catalog.pg_enum e where e.enumtypid = t.oid), '[]') as enums,
  coalesce((
    select json_agg(json_build_object('name', a.attname, 'type_id', a.atttypid::int8) order by a.attnum)
    from pg_catalog.pg_attribute a
    where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped
  ), '[]') as attributes,
  pg_catalog.obj_description(t.oid, 'pg_type') as comment,
  nullif(t.typrelid, 0)::int8 as type_relation_id
from pg_catalog.pg_type t
join pg_catalog.pg_namespace n on n.oid = t.typnamespace
left join pg_catalog.pg_class rel on rel.oid = t.typrelid
where (t.typrelid = 0 or rel.relkind = 'c')
  and (${params.add(input.include_array_types === true)}::boolean
    or not exists (select 1 from pg_catalog.pg_type el where el.oid = t.typelem and el.typarray = t.oid))
  and ${filter}
order by n.nspname, t.typname
${page}`,
    values: params.values,
  };
}

/** Schema and name of an enum type; none when there is none. */
export function enumTypeNameQuery(id: number): SqlQuery {
  return {
    text: `
select n.nspname as schema, t.typname as name
from pg_catalog.pg_type t join pg_catalog.pg_namespace n on n.oid = t.typnamespace
where t.oid = $1::int8::oid and t.typtype = 'e'`,
    values: [id],
  };
}

/** The id of a type by schema and name. */
export function typeIdQuery(schema: string, name: string): SqlQuery {
  return {
    text: `
select t.oid::int8 as id from pg_catalog.pg_type t join pg_catalog.pg_namespace n on n.oid = t.typnamespace
where n.nspname = $1 and t.typname = $2`,
    values: [schema, name],
  };
}
