import type { SqlQuery } from '@dash/service-kit';

/** Schema and name of a relation of one of `kinds` (pg_class.relkind); none when there is none. */
export function relationNameQuery(id: number, kinds: readonly string[]): SqlQuery {
  return {
    text: `
select n.nspname as schema, c.relname as name
from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where c.oid = $1::int8::oid and c.relkind = any($2::"char"[])`,
    values: [id, kinds],
  };
}
