
import { type SqlQuery } from '@dash/service-kit';
/** The fields each kind adds to postgres-meta's id, schema, name and comment. */
const KIND_FIELDS = {
  // Auto-updatable for both UPDATE (4) and DELETE (16), as postgres-meta reports it.
  view: { relkind: 'v', fields: `,\n  (pg_catalog.pg_relation_is_updatable(c.oid, false) & 20) = 20 as is_updatable` },
  materialized_view: { relkind: 'm', fields: ',\n  c.relispopulated as is_populated' },
  foreign_table: { relkind: 'f', fields: '' },
} as const;
export type ViewKind = keyof typeof KIND_FIELDS;

/**
 * postgres-meta's views, materialized views or foreign tables by id (from `relationIdsQuery`); their
 * columns come from `listColumnsQuery` for the same ids.
 */
export function viewsByIdQuery(kind: ViewKind, ids: readonly number[]): SqlQuery {
  const { relkind, fields } = KIND_FIELDS[kind];
  return {
    text: `
select
  c.oid::int8 as id,
  n.nspname as schema,
  c.relname as name,
  pg_catalog.obj_description(c.oid, 'pg_class') as comment${fields}
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where c.oid = any($1::oid[]) and c.relkind = '${relkind}'
order by n.nspname, c.relname`,
    values: [ids],
  };
}
