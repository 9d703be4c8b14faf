import type { SqlQuery } from '@dash/service-kit';
import type { SchemaFilterInput } from '../filters';
import { Params } from './relations';
import { pageClause, schemaCondition } from './schema-filter';

export interface FunctionListInput extends SchemaFilterInput {
  limit?: number;
  offset?: number;
  /** Only this function (the replies of writes), in any schema. */
  id?: number;
}

/**
 * postgres-meta's functions: plain functions (`prokind = 'f'`), with their arguments in declaration
 * order (mode, name, type, whether it has a default: the last `pronargdefaults` input arguments do;
 * null for OUT and TABLE arguments), the definition and the complete `create or replace` statement
 * Postgres prints (for a built-in `internal` function, the C symbol it calls, as postgres-meta has it).
 */
export function listFunctionsQuery(input: FunctionListInput): SqlQuery {
  const params = new Params();
  const filter =
    input.id !== undefined ? `p.oid = ${params.add(input.id)}::int8::oid` : schemaCondition(params, 'n.nspname', input);
  const page = input.id !== undefined ? '' : pageClause(params, input);
  return {
    text: `
select
  p.oid::int8 as id,
  n.nspname as schema,
  p.proname as name,
  l.lanname as language,
  case when l.lanname = 'internal' then '' else p.prosrc end as definition,
  case when l.lanname = 'internal' then p.prosrc else pg_catalog.pg_get_functiondef(p.oid) end as complete_statement,
  coalesce((
    select json_agg(json_build_object(
        'mode', a.mode, 'name', a.name, 'type_id', a.type_id, 'type_name', pg_catalog.format_type(a.type_id, null),
        'has_default', case when a.mode in ('in', 'inout', 'variadic') then a.input_no > p.pronargs - p.pronargdefaults end
      ) order by a.ord)
    from (
      select t.ord, t.type_id::int8 as type_id, coalesce(p.proargnames[t.ord], '') as name,
        case coalesce(p.proargmodes[t.ord], 'i') when 'i' then 'in' when 'o' then 'out' when 'b' then 'inout'
          when 'v' then 'variadic' else 'table' end as mode,
        count(*) filter (where coalesce(p.proargmodes[t.ord], 'i') in ('i', 'b', 'v')) over (order by t.ord) as input_no
      from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality as t(type_id, ord)
    ) a
  ), '[]') as args,
  pg_catalog.pg_get_function_arguments(p.oid) as argument_types,
  pg_catalog.pg_get_function_identity_arguments(p.oid) as identity_argument_types,
  p.prorettype::int8 as return_type_id,
  pg_catalog.pg_get_function_result(p.oid) as return_type,
  nullif(rt.typrelid, 0)::int8 as return_type_relation_id,
  p.proretset as is_set_returning_function,
  case when p.proretset then nullif(p.prorows, 0) end as prorows,
  case p.provolatile when 'i' then 'IMMUTABLE' when 's' then 'STABLE' else 'VOLATILE' end as behavior,
  p.prosecdef as security_definer,
  case when p.proconfig is not null then (
    select json_object_agg(split_part(setting, '=', 1), substr(setting, strpos(setting, '=') + 1))
    from unnest(p.proconfig) as setting
  ) end as config_params
from pg_catalog.pg_proc p
join pg_catalog.pg_namespace n on n.oid = p.pronamespace
join pg_catalog.pg_language l on l.oid = p.prolang
join pg_catalog.pg_type rt on rt.oid = p.prorettype
where p.prokind = 'f' and ${filter}
order by n.nspname, p.proname, p.oid
${page}`,
    values: params.values,
  };
}

/** Schema, name and `regprocedure` text (quoted by Postgres) of a plain function; none when there is none. */
export function functionNameQuery(id: number): SqlQuery {
  return {
    text: `
select n.nspname as schema, p.proname as name, p.oid::regprocedure::text as signature
from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
where p.oid = $1::int8::oid and p.prokind = 'f'`,
    values: [id],
  };
}

/** The oid of the function a signature (`"s"."f"(int4, text)`, built from quoted names) names, or null. */
export function functionBySignatureQuery(signature: string): SqlQuery {
  return { text: 'select pg_catalog.to_regprocedure($1)::oid::int8 as id', values: [signature] };
}
