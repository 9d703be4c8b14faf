import type { SqlQuery } from '@dash/service-kit';

/** Where the Supabase CLI records the migrations `supabase db push` applied. */
export const MIGRATIONS_TABLE = { schema: 'supabase_migrations', name: 'schema_migrations' } as const;

export interface MigrationsTableShape {
  /** The table exists and has a `version` column. */
  present: boolean;
  /** The service's role may select from it. */
  readable: boolean;
  /** Older CLI versions made the table without `name` (and the oldest without `statements`). */
  has_name: boolean;
  /** `statements` is an array (text[] as the CLI makes it). */
  has_statements: boolean;
}

/** Whether the CLI's table is there, readable, and which of its optional columns it has. */
export function migrationsTableShapeQuery(): SqlQuery {
  const column = (name: string, extra = '') =>
    `exists (select from pg_catalog.pg_attribute a ${extra ? 'join pg_catalog.pg_type t on t.oid = a.atttypid ' : ''}` +
    `where a.attrelid = r.oid and a.attname = '${name}' and a.attnum > 0 and not a.attisdropped${extra})`;
  // Looked up in the catalog rather than with to_regclass, which fails on a schema the role may not use.
  return {
    text: `
select
  r.oid is not null and ${column('version')} as present,
  r.oid is not null and pg_catalog.has_schema_privilege(r.nsp, 'usage') and pg_catalog.has_table_privilege(r.oid, 'select') as readable,
  ${column('name')} as has_name,
  ${column('statements', " and t.typcategory = 'A'")} as has_statements
from (select 1) one
left join lateral (
  select c.oid, n.oid as nsp from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'p', 'v', 'm', 'f')
) r on true`,
    values: [MIGRATIONS_TABLE.schema, MIGRATIONS_TABLE.name],
  };
}

/** The applied migrations, newest first (versions are timestamps of one length, so text order is time order). */
export function listMigrationsQuery(shape: Pick<MigrationsTableShape, 'has_name' | 'has_statements'>): SqlQuery {
  const name = shape.has_name ? 'name::text' : 'null::text';
  const statements = shape.has_statements ? 'coalesce(pg_catalog.cardinality(statements), 0)' : '0';
  return {
    text: `select version::text as version, ${name} as name, ${statements}::int4 as statements from ${MIGRATIONS_TABLE.schema}.${MIGRATIONS_TABLE.name} order by version desc`,
    values: [],
  };
}
