import { schemaFilter, TEMP_SCHEMA_REGEX, type SchemaFilterInput } from '../filters';
import { type SqlQuery } from '@dash/service-kit';

/** Collects the values of a statement and hands out their `$n` placeholders. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Relation kinds of the catalog routes and their pg_class.relkind values. */
export const RELKINDS = {
  table: ['r', 'p'],
  view: ['v'],
  materialized_view: ['m'],
  foreign_table: ['f'],
  any: ['r', 'p', 'v', 'm', 'f'],
} as const;
export type RelationKind = keyof typeof RELKINDS;

/** Largest oid: a larger id cannot name a relation, so routes answer 404 without asking. */
export const MAX_OID = 4_294_967_295;

export interface RelationFilter extends SchemaFilterInput {
  kind: RelationKind;
  /** Only these relations (oids). */
  ids?: readonly number[];
  limit?: number;
  offset?: number;
}

/**
 * Tables are listed when the connection's role may do something with them, as postgres-meta lists
 * them: a member of the owner, or any table privilege, or any column privilege.
 */
const TABLE_PRIVILEGE = `(pg_catalog.pg_has_role(c.relowner, 'USAGE')
      or pg_catalog.has_table_privilege(c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
      or pg_catalog.has_any_column_privilege(c.oid, 'SELECT, INSERT, UPDATE, REFERENCES'))`;

/**
 * The relations a catalog query works on, as the body of a CTE with columns `oid`, `nspname`,
 * `relname`, `relkind` (plus the pg_class columns named in `extra`). The schema filter, the kind, the
 * ids and the page are applied here, over pg_class and pg_namespace alone, so whatever the caller joins
 * to it (attributes, constraints, sizes) is only computed for the relations returned.
 */
export function relationsCte(params: Params, filter: RelationFilter, extra: readonly string[] = []): string {
  const { include, exclude } = schemaFilter(filter);
  const kinds = params.add(RELKINDS[filter.kind]);
  const temp = params.add(TEMP_SCHEMA_REGEX);
  const included = params.add(include);
  const excluded = params.add(exclude);
  const ids = filter.ids ? params.add(filter.ids) : null;
  const paged = filter.limit !== undefined || (filter.offset ?? 0) > 0;
  const page = paged ? { limit: params.add(filter.limit ?? null), offset: params.add(filter.offset ?? 0) } : null;
  return `
  select c.oid, n.nspname, c.relname, c.relkind${extra.map((col) => `, c.${col}`).join('')}
  from pg_catalog.pg_class c
  join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  where c.relkind = any(${kinds}::"char"[])
    and n.nspname !~ ${temp}
    and (${included}::text[] is null or n.nspname = any(${included}::text[]))
    and n.nspname <> all(${excluded}::text[])${filter.kind === 'table' ? `\n    and ${TABLE_PRIVILEGE}` : ''}${
      ids ? `\n    and c.oid = any(${ids}::oid[])` : ''
    }${
      page ? `\n  order by n.nspname, c.relname\n  limit ${page.limit}::int8 offset ${page.offset}::int8` : ''
    }`;
}

/**
 * The ids of the relations a list shows, in the list's order (schema, then name), paged. The first
 * step of every relation list: what is read next is read for these ids only.
 */
export function relationIdsQuery(filter: RelationFilter): SqlQuery {
  const params = new Params();
  const page = relationsCte(params, filter);
  return {
    text: `
with page as (${page}
)
select p.oid::int8 as id from page p order by p.nspname, p.relname`,
    values: params.values,
  };
}
