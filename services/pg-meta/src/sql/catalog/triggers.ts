import type { SqlQuery } from '@dash/service-kit';
import type { SchemaFilterInput } from '../filters';
import { Params } from './relations';
import { pageClause, schemaCondition } from './schema-filter';

export interface TriggerListInput extends SchemaFilterInput {
  limit?: number;
  offset?: number;
  /** Only this trigger (the replies of writes), in any schema. */
  id?: number;
}

/**
 * postgres-meta's triggers (not the internal ones of constraints), decoded from `tgtype`'s bits:
 * 1 row, 2 before, 4 insert, 8 delete, 16 update, 32 truncate, 64 instead of.
 */
export function listTriggersQuery(input: TriggerListInput): SqlQuery {
  const params = new Params();
  const filter =
    input.id !== undefined ? `t.oid = ${params.add(input.id)}::int8::oid` : schemaCondition(params, 'n.nspname', input);
  const page = input.id !== undefined ? '' : pageClause(params, input);
  return {
    text: `
select
  t.oid::int8 as id,
  c.oid::int8 as table_id,
  case t.tgenabled when 'D' then 'DISABLED' when 'R' then 'REPLICA' when 'A' then 'ALWAYS' else 'ORIGIN' end as enabled_mode,
  ${triggerArgsSql('t')} as function_args,
  t.tgname as name,
  c.relname as table,
  n.nspname as schema,
  case when t.tgqual is not null
    then substring(pg_catalog.pg_get_triggerdef(t.oid) from 'WHEN \\((.*)\\) EXECUTE') end as condition,
  case when t.tgtype & 1 = 1 then 'ROW' else 'STATEMENT' end as orientation,
  case when t.tgtype & 64 = 64 then 'INSTEAD OF' when t.tgtype & 2 = 2 then 'BEFORE' else 'AFTER' end as activation,
  array_remove(array[
    case when t.tgtype & 4 = 4 then 'INSERT' end,
    case when t.tgtype & 16 = 16 then 'UPDATE' end,
    case when t.tgtype & 8 = 8 then 'DELETE' end,
    case when t.tgtype & 32 = 32 then 'TRUNCATE' end
  ], null) as events,
  fn.nspname as function_schema,
  p.proname as function_name
from pg_catalog.pg_trigger t
join pg_catalog.pg_class c on c.oid = t.tgrelid
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
join pg_catalog.pg_proc p on p.oid = t.tgfoid
join pg_catalog.pg_namespace fn on fn.oid = p.pronamespace
where not t.tgisinternal and ${filter}
order by n.nspname, c.relname, t.tgname
${page}`,
    values: params.values,
  };
}

/**
 * A trigger's arguments as a JSON array of text. `tgargs` holds each argument followed by a NUL byte, in
 * the database's encoding: the bytes between NULs are decoded one argument at a time (no text function
 * can hold the NULs, and an escaped text of the whole would mangle non-ASCII arguments).
 */
export function triggerArgsSql(trigger: string): string {
  return `coalesce((
    select json_agg(pg_catalog.convert_from(substring(${trigger}.tgargs from a.start + 1 for a.stop - a.start), pg_catalog.getdatabaseencoding()) order by a.stop)
    from (
      select i as stop, coalesce(lag(i) over (order by i) + 1, 0) as start
      from generate_series(0, length(${trigger}.tgargs) - 1) as i
      where get_byte(${trigger}.tgargs, i) = 0
    ) a
  ), '[]')`;
}

/** Name and table of a trigger; none when there is none (or it is a constraint's). */
export function triggerNameQuery(id: number): SqlQuery {
  return {
    text: `
select t.tgname as name, n.nspname as schema, c.relname as table
from pg_catalog.pg_trigger t
join pg_catalog.pg_class c on c.oid = t.tgrelid
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where t.oid = $1::int8::oid and not t.tgisinternal`,
    values: [id],
  };
}

/** The id of a trigger by table and name. */
export function triggerIdQuery(tableId: number, name: string): SqlQuery {
  return { text: 'select oid::int8 as id from pg_catalog.pg_trigger where tgrelid = $1::int8::oid and tgname = $2', values: [tableId, name] };
}
