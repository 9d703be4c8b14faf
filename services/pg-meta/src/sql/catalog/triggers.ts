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
 * 1 row, 2 before, 4 insert, 8 delete, 16 update, 32 truncate, 64 instead of. `tgargs` is returned raw
 * (NUL-separated bytes) and split by `triggerArgs`: text functions would mangle non-ASCII arguments.
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
  t.tgnargs as nargs,
  t.tgargs as args,
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

/** A trigger row as the query returns it, before its arguments are decoded. */
export interface TriggerRow {
  nargs: number;
  args: Buffer;
}

/** The trigger's arguments: `tgargs` holds each one followed by a NUL byte. */
export function triggerArgs(row: TriggerRow): string[] {
  const args: string[] = [];
  let start = 0;
  for (let i = 0; i < row.args.length && args.length < row.nargs; i++) {
    if (row.args[i] === 0) {
      args.push(row.args.subarray(start, i).toString('utf8'));
      start = i + 1;
    }
  }
  return args;
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
