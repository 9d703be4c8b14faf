import type { SqlQuery } from '@dash/service-kit';

/*
 * The catalog the TypeScript generator renders (`renderTypescript` in ../generators/typescript.ts): for
 * the given schemas, their tables and views with columns and foreign keys, functions, enums and
 * composite types. One query, one JSON document; the schemas are a text[] parameter.
 *
 * A type is described by `TYPE_REF` as its schema, name and kind (`e` enum, `c` composite, `b` base...),
 * arrays by their element (with `array` true) and domains by their base type, which is what TypeScript sees.
 */

const typeRef = (oid: string) => `(
  select json_build_object('schema', bn.nspname, 'name', b.typname, 'kind', b.typtype, 'array', e.oid is not null,
    'relkind', (select c.relkind from pg_catalog.pg_class c where c.oid = b.typrelid))
  from pg_catalog.pg_type t
  left join pg_catalog.pg_type e on e.oid = t.typelem and t.typcategory = 'A' and t.typelem <> 0
  join pg_catalog.pg_type b0 on b0.oid = coalesce(e.oid, t.oid)
  join pg_catalog.pg_type b on b.oid = case when b0.typtype = 'd' then b0.typbasetype else b0.oid end
  join pg_catalog.pg_namespace bn on bn.oid = b.typnamespace
  where t.oid = ${oid})`;

export function typescriptCatalogQuery(schemas: readonly string[]): SqlQuery {
  return {
    text: `
with rels as (
  select c.oid, n.nspname as schema, c.relname as name, c.relkind
  from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  where n.nspname = any ($1::text[]) and c.relkind in ('r', 'p', 'v', 'm', 'f')
)
select json_build_object(
  'relations', coalesce((select json_agg(json_build_object(
    'schema', r.schema, 'name', r.name,
    'kind', case when r.relkind in ('v', 'm') then 'view' else 'table' end,
    'updatable', r.relkind in ('r', 'p', 'f') or pg_catalog.pg_relation_is_updatable(r.oid, false) & 28 = 28,
    'columns', coalesce((select json_agg(json_build_object(
        'name', a.attname,
        'type', ${typeRef('a.atttypid')},
        'nullable', not a.attnotnull,
        'has_default', a.atthasdef or a.attidentity <> '',
        'generated', a.attgenerated <> '' or a.attidentity = 'a'
      ) order by a.attname)
      from pg_catalog.pg_attribute a where a.attrelid = r.oid and a.attnum > 0 and not a.attisdropped), '[]'::json),
    'relationships', coalesce((select json_agg(json_build_object(
        'name', k.conname,
        'columns', (select json_agg(a.attname order by x.ord) from unnest(k.conkey) with ordinality x(num, ord)
                    join pg_catalog.pg_attribute a on a.attrelid = k.conrelid and a.attnum = x.num),
        'one_to_one', exists (select 1 from pg_catalog.pg_index i where i.indrelid = k.conrelid and i.indisunique
                              and i.indpred is null and (i.indkey::int2[])::int2[] @> k.conkey and (i.indkey::int2[])::int2[] <@ k.conkey),
        'referenced_schema', fn.nspname,
        'referenced_relation', fc.relname,
        'referenced_columns', (select json_agg(a.attname order by x.ord) from unnest(k.confkey) with ordinality x(num, ord)
                               join pg_catalog.pg_attribute a on a.attrelid = k.confrelid and a.attnum = x.num)
      ) order by k.conname)
      from pg_catalog.pg_constraint k
      join pg_catalog.pg_class fc on fc.oid = k.confrelid
      join pg_catalog.pg_namespace fn on fn.oid = fc.relnamespace
      where k.conrelid = r.oid and k.contype = 'f'), '[]'::json)
  ) order by r.schema, r.name) from rels r), '[]'::json),
  'functions', coalesce((select json_agg(json_build_object(
    'schema', n.nspname, 'name', p.proname,
    'args', coalesce((select json_agg(json_build_object('name', x.name, 'type', ${typeRef('x.type')},
        'has_default', x.position > p.pronargs - p.pronargdefaults) order by x.position)
      from (select y.name, y.type, row_number() over (order by y.ord) as position
            from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]), coalesce(p.proargmodes, array[]::"char"[]), coalesce(p.proargnames, array[]::text[]))
              with ordinality as y(type, mode, name, ord)
            where y.type is not null and coalesce(y.mode, 'i') in ('i', 'b', 'v')) x
      where coalesce(x.name, '') <> ''), '[]'::json),
    'returns', ${typeRef('p.prorettype')},
    'returns_set', p.proretset,
    'returns_table', coalesce((select json_agg(json_build_object('name', y.name, 'type', ${typeRef('y.type')}) order by y.ord)
      from unnest(p.proallargtypes, p.proargmodes, p.proargnames) with ordinality as y(type, mode, name, ord)
      where y.mode = 't'), '[]'::json)
  ) order by n.nspname, p.proname, p.oid)
  from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
  where n.nspname = any ($1::text[]) and p.prokind = 'f'
    and p.prorettype not in ('pg_catalog.trigger'::regtype, 'pg_catalog.event_trigger'::regtype, 'pg_catalog.internal'::regtype)
    and not exists (select 1 from pg_catalog.pg_depend d where d.objid = p.oid and d.classid = 'pg_catalog.pg_proc'::regclass and d.deptype = 'e')
  ), '[]'::json),
  'enums', coalesce((select json_agg(json_build_object('schema', n.nspname, 'name', t.typname,
      'values', (select json_agg(e.enumlabel order by e.enumsortorder) from pg_catalog.pg_enum e where e.enumtypid = t.oid))
    order by n.nspname, t.typname)
    from pg_catalog.pg_type t join pg_catalog.pg_namespace n on n.oid = t.typnamespace
    where n.nspname = any ($1::text[]) and t.typtype = 'e'), '[]'::json),
  'composites', coalesce((select json_agg(json_build_object('schema', n.nspname, 'name', t.typname,
      'attributes', (select json_agg(json_build_object('name', a.attname, 'type', ${typeRef('a.atttypid')}) order by a.attnum)
                     from pg_catalog.pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped))
    order by n.nspname, t.typname)
    from pg_catalog.pg_type t join pg_catalog.pg_namespace n on n.oid = t.typnamespace join pg_catalog.pg_class c on c.oid = t.typrelid
    where n.nspname = any ($1::text[]) and t.typtype = 'c' and c.relkind = 'c'), '[]'::json)
) as catalog`,
    values: [schemas],
  };
}
