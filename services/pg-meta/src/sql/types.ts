
import { type SqlQuery } from '@dash/service-kit';
/** Names of data types by oid, for the SQL editor's result columns. */
export function typeNamesQuery(oids: readonly number[]): SqlQuery {
  return {
    text: 'select t.oid::int8 as oid, t.typname as name from pg_catalog.pg_type t where t.oid = any($1::oid[])',
    values: [oids],
  };
}
