import type { SqlQuery } from '@dash/service-kit';
import type { LintCategory, LintLevel } from '@dash/contracts';

/**
 * A lint: its fixed texts and a catalog query (`findings`) with one row per object it finds, with the
 * columns `schema`, `name`, `type` (a LintObjectType), `detail` (naming the object), `remediation_sql`
 * (a fixing statement or null) and `key` (what tells two findings on one object apart, or null).
 *
 * `findings` may use three parameters: `$1` the exposed schemas, `$2` the platform's schemas (never
 * linted), `$3` the API roles (anon, authenticated), each a text[]. Object names in texts go through
 * `format('%I')`, so a statement in `remediation_sql` quotes them as Postgres would.
 */
export interface LintDef {
  name: string;
  title: string;
  level: LintLevel;
  facing: 'EXTERNAL' | 'INTERNAL';
  categories: LintCategory[];
  description: string;
  remediation: string;
  findings: string;
}

export interface LintInput {
  exposedSchemas: readonly string[];
  protectedSchemas: readonly string[];
  apiRoles: readonly string[];
}

/** A schema of the project's own (not the platform's, not a system or temporary one). */
export const userSchema = (nspname: string) => `${nspname} <> all($2::text[]) and ${nspname} not like 'pg\\_%'`;

/** A schema the API serves. */
export const exposedSchema = (nspname: string) => `${nspname} = any($1::text[])`;

/** The object is not part of an extension (the extension's authors own it). */
export const notInExtension = (catalog: 'pg_class' | 'pg_proc', oid: string) =>
  `not exists (select 1 from pg_catalog.pg_depend ext where ext.classid = 'pg_catalog.${catalog}'::regclass and ext.objid = ${oid} and ext.deptype = 'e')`;

/**
 * One of the API roles passes `check`, written about the role's oid `ar.oid` (roles missing on the
 * server are skipped, so the query never fails on a name).
 */
export const apiRoleMay = (check: string) => `exists (select 1 from pg_catalog.pg_roles ar where ar.rolname = any($3::text[]) and ${check})`;

/** An API role may use the schema and read or write the relation. */
export const apiRoleMayUseRelation = (nspOid: string, relOid: string) =>
  apiRoleMay(
    `pg_catalog.has_schema_privilege(ar.oid, ${nspOid}, 'usage') and pg_catalog.has_table_privilege(ar.oid, ${relOid}, 'select,insert,update,delete')`,
  );

/** The lint's findings as full rows: the lint's texts, each finding's detail, fix, object and cache key. */
export function lintQuery(lint: LintDef, input: LintInput): SqlQuery {
  return {
    text: `select $4::text as name, $5::text as title, $6::text as level, $7::text as facing, $8::text[] as categories,
  $9::text as description, f.detail, $10::text as remediation, f.remediation_sql,
  pg_catalog.jsonb_build_object('schema', f.schema, 'name', f.name, 'type', f.type) as metadata,
  concat_ws('_', $4::text, f.schema, f.name, f.key) as cache_key
from (${lint.findings}) f
-- Types the three inputs for a lint that uses only some of them (Postgres must know every parameter's type).
cross join (select $1::text[], $2::text[], $3::text[]) inputs
order by f.schema, f.name, f.key`,
    values: [
      [...input.exposedSchemas],
      [...input.protectedSchemas],
      [...input.apiRoles],
      lint.name,
      lint.title,
      lint.level,
      lint.facing,
      lint.categories,
      lint.description,
      lint.remediation,
    ],
  };
}
