import type { SchemaCreate, SchemaUpdate } from '@dash/contracts';
import { badRequest, type SqlQuery } from '@dash/service-kit';
import { ident } from './ddl/names';
import { SYSTEM_SCHEMAS, TEMP_SCHEMA_REGEX } from './filters';

/**
 * postgres-meta's schema list: the schemas the connection's role may use (it is a member of the owner,
 * or has USAGE or CREATE). information_schema and every `pg_` schema are hidden unless asked for;
 * temporary schemas (pg_temp_N, pg_toast_temp_N) are never listed, nor found by id or name.
 */
export function listSchemasQuery(opts: { includeSystemSchemas?: boolean; id?: number; name?: string; limit?: number; offset?: number }): SqlQuery {
  return {
    text: `
select n.oid::int8 as id, n.nspname as name, pg_get_userbyid(n.nspowner) as owner
from pg_catalog.pg_namespace n
where n.nspname !~ $1
  and ($2::boolean or (n.nspname <> all($3::text[]) and not pg_catalog.starts_with(n.nspname, 'pg_')))
  and (pg_catalog.pg_has_role(n.nspowner, 'USAGE') or pg_catalog.has_schema_privilege(n.oid, 'CREATE, USAGE'))
  and ($4::int8 is null or n.oid = $4::int8::oid)
  and ($5::text is null or n.nspname = $5)
order by n.nspname
limit $6::int8 offset $7::int8`,
    values: [TEMP_SCHEMA_REGEX, opts.includeSystemSchemas === true, SYSTEM_SCHEMAS, opts.id ?? null, opts.name ?? null, opts.limit ?? null, opts.offset ?? 0],
  };
}

/** One schema, system schemas included (so that changing one is refused rather than not found). */
export const findSchemaQuery = (lookup: { id?: number; name?: string }) => listSchemasQuery({ includeSystemSchemas: true, ...lookup });

/** The `pg_` prefix is reserved for system schemas (Postgres refuses to create one). */
export const isSystemSchema = (name: string) => SYSTEM_SCHEMAS.includes(name) || name.startsWith('pg_');

export function createSchemaStatement(input: SchemaCreate): string {
  const owner = input.owner !== undefined ? ` authorization ${ident(input.owner)}` : '';
  return `create schema ${ident(input.name)}${owner}`;
}

/** Rename, then change the owner (of the schema under its new name); only what is given. */
export function updateSchemaStatements(current: string, update: SchemaUpdate): string[] {
  if (isSystemSchema(current)) throw badRequest(`The system schema "${current}" cannot be changed`);
  const statements: string[] = [];
  let name = current;
  if (update.name !== undefined && update.name !== current) {
    statements.push(`alter schema ${ident(current)} rename to ${ident(update.name)}`);
    name = update.name;
  }
  if (update.owner !== undefined) {
    statements.push(`alter schema ${ident(name)} owner to ${ident(update.owner)}`);
  }
  return statements;
}

/** Without `cascade`, Postgres refuses to drop a schema that is not empty. */
export function dropSchemaStatement(name: string, cascade: boolean): string {
  if (isSystemSchema(name)) throw badRequest(`The system schema "${name}" cannot be dropped`);
  return `drop schema ${ident(name)} ${cascade ? 'cascade' : 'restrict'}`;
}
