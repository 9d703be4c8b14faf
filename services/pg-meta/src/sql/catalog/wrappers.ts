import type { SqlQuery } from '@dash/service-kit';

/**
 * Option names whose values are secrets (API keys and their vault ids, passwords, tokens, connection
 * strings): matched case-insensitively, their values never leave Postgres.
 */
export const SECRET_OPTION_NAME = 'pass|pwd|secret|token|key|credential|auth|private|conn(ection)?_?str|dsn';
/** A value with credentials in it, whatever the option's name: `scheme://user:password@host`. */
export const SECRET_OPTION_VALUE = '://[^/@[:space:]]*:[^/@[:space:]]*@';

/** `name=value` options (`fdwoptions`, `srvoptions`, `ftoptions`) as JSON, in their order, secrets nulled. */
const options = (column: string) => `coalesce((
    select json_agg(json_build_object('name', o.option_name, 'value',
      case when o.option_name ~* $1 or o.option_value ~ $2 then null else o.option_value end) order by o.ord)
    from pg_catalog.pg_options_to_table(${column}) with ordinality as o(option_name, option_value, ord)
  ), '[]'::json)`;

/** `schema.name` of a handler or validator function; null for none (oid 0). */
const functionName = (column: string) =>
  `(select fn.nspname || '.' || p.proname from pg_catalog.pg_proc p join pg_catalog.pg_namespace fn on fn.oid = p.pronamespace where p.oid = ${column})`;

/** Every foreign data wrapper of the database, its servers and their foreign tables, in one statement. */
export function listWrappersQuery(): SqlQuery {
  return {
    text: `
select
  w.oid::int8 as id,
  w.fdwname as name,
  pg_catalog.pg_get_userbyid(w.fdwowner) as owner,
  ${functionName('w.fdwhandler')} as handler,
  ${functionName('w.fdwvalidator')} as validator,
  (select e.extname from pg_catalog.pg_depend d join pg_catalog.pg_extension e on e.oid = d.refobjid
   where d.classid = 'pg_catalog.pg_foreign_data_wrapper'::regclass and d.objid = w.oid
     and d.refclassid = 'pg_catalog.pg_extension'::regclass and d.deptype = 'e') as extension,
  ${options('w.fdwoptions')} as options,
  coalesce((
    select json_agg(json_build_object(
      'id', s.oid::int8,
      'name', s.srvname,
      'owner', pg_catalog.pg_get_userbyid(s.srvowner),
      'type', s.srvtype,
      'version', s.srvversion,
      'options', ${options('s.srvoptions')},
      'foreign_tables', coalesce((
        select json_agg(json_build_object('id', c.oid::int8, 'schema', n.nspname, 'name', c.relname, 'options', ${options('ft.ftoptions')})
          order by n.nspname, c.relname)
        from pg_catalog.pg_foreign_table ft
        join pg_catalog.pg_class c on c.oid = ft.ftrelid
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where ft.ftserver = s.oid
      ), '[]'::json)
    ) order by s.srvname)
    from pg_catalog.pg_foreign_server s
    where s.srvfdw = w.oid
  ), '[]'::json) as servers
from pg_catalog.pg_foreign_data_wrapper w
order by w.fdwname`,
    values: [SECRET_OPTION_NAME, SECRET_OPTION_VALUE],
  };
}
