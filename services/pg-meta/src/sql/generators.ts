import type { SqlQuery } from '@dash/service-kit';
import { SYSTEM_SCHEMAS } from './filters';

/*
 * The catalog the TypeScript generator renders (`renderTypescript` in ../generators/typescript.ts), as
 * postgres-meta's generator reads it: the schemas asked for (every schema the connection's role may
 * use but the system ones when none is named; `excluded_schemas` then leaves some out), their tables,
 * foreign tables, views and materialized views with columns, their foreign keys, their functions, and
 * every type of the database (to resolve the types of columns, arguments and results by id or name).
 * One query, one JSON document; the order is the renderer's business.
 */

/** Which schemas: these (when given), or all but the system ones and `exclude`. */
export interface GeneratorSchemas {
  include: readonly string[];
  exclude: readonly string[];
}

export function typescriptCatalogQuery(schemas: GeneratorSchemas): SqlQuery {
  const include = schemas.include.length > 0 ? schemas.include : null;
  return {
    text: `
with schemas as (
  select n.oid, n.nspname as name
  from pg_catalog.pg_namespace n
  where not pg_catalog.starts_with(n.nspname, 'pg_')
    and (pg_catalog.pg_has_role(n.nspowner, 'USAGE') or pg_catalog.has_schema_privilege(n.oid, 'CREATE, USAGE'))
    and case when $1::text[] is null then n.nspname <> all($2::text[] || $3::text[]) else n.nspname = any($1::text[]) end
),
rels as (
  select c.oid, s.name as schema, c.relname as name, c.relkind
  from pg_catalog.pg_class c join schemas s on s.oid = c.relnamespace
  where c.relkind in ('r', 'p', 'f', 'v', 'm')
    and (c.relkind not in ('r', 'p') or pg_catalog.pg_has_role(c.relowner, 'USAGE')
      or pg_catalog.has_table_privilege(c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
      or pg_catalog.has_any_column_privilege(c.oid, 'SELECT, INSERT, UPDATE, REFERENCES'))
)
select json_build_object(
  'schemas', coalesce((select json_agg(s.name) from schemas s), '[]'),
  'relations', coalesce((select json_agg(json_build_object(
    'id', r.oid::int8, 'schema', r.schema, 'name', r.name,
    'kind', case r.relkind when 'f' then 'foreign_table' when 'v' then 'view' when 'm' then 'materialized_view' else 'table' end,
    -- What PostgREST may write through a view: auto-updatable, or INSTEAD OF triggers or rules.
    'insert_enabled', r.relkind = 'v' and (pg_catalog.pg_relation_is_updatable(r.oid, true) & 8) = 8,
    'update_enabled', r.relkind = 'v' and (pg_catalog.pg_relation_is_updatable(r.oid, true) & 4) = 4,
    'columns', coalesce((select json_agg(json_build_object(
        'name', a.attname,
        'format', coalesce(bt.typname, t.typname),
        'type_schema', (select tn.nspname from pg_catalog.pg_namespace tn where tn.oid = coalesce(bt.typnamespace, t.typnamespace)),
        'nullable', not (a.attnotnull or (t.typtype = 'd' and t.typnotnull)),
        'is_identity', a.attidentity in ('a', 'd'),
        'identity_always', a.attidentity = 'a',
        'generated', a.attgenerated <> '',
        'has_default', a.atthasdef,
        'updatable', r.relkind in ('r', 'p') or (r.relkind in ('v', 'f') and (
          pg_catalog.pg_column_is_updatable(r.oid, a.attnum, false)
          or exists (select 1 from pg_catalog.pg_trigger tg
            where tg.tgrelid = r.oid and tg.tgtype & 64 <> 0 and tg.tgtype & 20 <> 0 and not tg.tgisinternal)
          or exists (select 1 from pg_catalog.pg_rewrite rw
            where rw.ev_class = r.oid and rw.is_instead and rw.ev_type in ('2', '3') and rw.ev_qual::text = '<>')))
      ))
      from pg_catalog.pg_attribute a
      join pg_catalog.pg_type t on t.oid = a.atttypid
      left join pg_catalog.pg_type bt on t.typtype = 'd' and bt.oid = t.typbasetype
      where a.attrelid = r.oid and a.attnum > 0 and not a.attisdropped
        and (pg_catalog.pg_has_role((select c.relowner from pg_catalog.pg_class c where c.oid = r.oid), 'USAGE')
          or pg_catalog.has_column_privilege(r.oid, a.attnum, 'SELECT, INSERT, UPDATE, REFERENCES'))), '[]')
  )) from rels r), '[]'),
  -- Foreign keys (a partition's copies of its parent's keys left out); one-to-one when the key's columns,
  -- in the key's order, are those of the table's primary key or of one of its unique constraints in
  -- column order (as PostgREST's schema cache compares them).
  'relationships', coalesce((select json_agg(json_build_object(
      'name', k.conname, 'schema', s.name, 'relation', tc.relname,
      'columns', cols.names, 'referenced_schema', fn.nspname, 'referenced_relation', fc.relname, 'referenced_columns', cols.refs,
      'one_to_one', exists (
        select 1 from pg_catalog.pg_constraint u
        where u.conrelid = k.conrelid and u.contype in ('p', 'u')
          and k.conkey = (select array_agg(x order by x) from unnest(u.conkey) x))
    ))
    from pg_catalog.pg_constraint k
    join schemas s on s.oid = k.connamespace
    join pg_catalog.pg_class tc on tc.oid = k.conrelid
    join pg_catalog.pg_class fc on fc.oid = k.confrelid
    join pg_catalog.pg_namespace fn on fn.oid = fc.relnamespace
    cross join lateral (
      select json_agg(a.attname order by x.ord) as names, json_agg(f.attname order by x.ord) as refs
      from unnest(k.conkey, k.confkey) with ordinality as x(col, ref, ord)
      join pg_catalog.pg_attribute a on a.attrelid = k.conrelid and a.attnum = x.col
      join pg_catalog.pg_attribute f on f.attrelid = k.confrelid and f.attnum = x.ref
    ) cols
    where k.contype = 'f' and k.conparentid = 0), '[]'),
  'functions', coalesce((select json_agg(json_build_object(
      'schema', s.name, 'name', p.proname,
      'argument_types', pg_catalog.pg_get_function_arguments(p.oid),
      'return_type', pg_catalog.pg_get_function_result(p.oid),
      'return_type_id', p.prorettype::int8,
      'return_type_relation_id', nullif(rt.typrelid, 0)::int8,
      'returns_set', p.proretset,
      'rows', case when p.proretset then nullif(p.prorows, 0) end,
      'args', coalesce((
        select json_agg(json_build_object('mode', a.mode, 'name', a.name, 'type_id', a.type_id,
            'has_default', a.mode in ('in', 'inout', 'variadic') and a.input_no > p.pronargs - p.pronargdefaults) order by a.ord)
        from (
          select x.ord, x.type_id::int8 as type_id, coalesce(p.proargnames[x.ord], '') as name,
            case coalesce(p.proargmodes[x.ord], 'i') when 'i' then 'in' when 'o' then 'out' when 'b' then 'inout'
              when 'v' then 'variadic' else 'table' end as mode,
            count(*) filter (where coalesce(p.proargmodes[x.ord], 'i') in ('i', 'b', 'v')) over (order by x.ord) as input_no
          from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality as x(type_id, ord)
        ) a), '[]')
    ))
    from pg_catalog.pg_proc p
    join schemas s on s.oid = p.pronamespace
    join pg_catalog.pg_type rt on rt.oid = p.prorettype
    where p.prokind = 'f' and p.prorettype not in ('pg_catalog.trigger'::regtype, 'pg_catalog.event_trigger'::regtype)), '[]'),
  -- Every type but the row types of indexes, sequences and the like: enums with their labels, standalone
  -- composite types with their attributes; 'format' as format_type writes it on this connection.
  'types', coalesce((select json_agg(json_build_object(
      'id', t.oid::int8, 'name', t.typname, 'schema', n.nspname, 'format', pg_catalog.format_type(t.oid, null),
      'enums', coalesce((select json_agg(e.enumlabel order by e.enumsortorder) from pg_catalog.pg_enum e where e.enumtypid = t.oid), '[]'),
      'attributes', case when c.relkind = 'c' then coalesce((
        select json_agg(json_build_object('name', a.attname, 'type_id', a.atttypid::int8) order by a.attnum)
        from pg_catalog.pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '[]') else '[]' end,
      'type_relation_id', nullif(t.typrelid, 0)::int8
    ))
    from pg_catalog.pg_type t
    join pg_catalog.pg_namespace n on n.oid = t.typnamespace
    left join pg_catalog.pg_class c on c.oid = t.typrelid
    where t.typrelid = 0 or c.relkind in ('c', 'r', 'v', 'm', 'p', 'f')), '[]')
) as catalog`,
    values: [include, SYSTEM_SCHEMAS, schemas.exclude],
  };
}
