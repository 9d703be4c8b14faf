import { schemaFilter, TEMP_SCHEMA_REGEX, type SchemaFilterInput } from '../filters';
import type { Params } from './relations';

/**
 * postgres-meta's schema filter on a schema-name column (`n.nspname`), as a condition with its values
 * in `params`: temporary schemas never, system schemas unless asked for or included by name.
 */
export function schemaCondition(params: Params, column: string, input: SchemaFilterInput): string {
  const { include, exclude } = schemaFilter(input);
  const temp = params.add(TEMP_SCHEMA_REGEX);
  const included = params.add(include);
  const excluded = params.add(exclude);
  return `${column} !~ ${temp}
  and (${included}::text[] is null or ${column} = any(${included}::text[]))
  and ${column} <> all(${excluded}::text[])`;
}

/**
 * `limit/offset` of a list: no limit unless given. A whole list says `limit all` rather than nothing:
 * with a limit clause Postgres computes costly columns (definitions) after the sort, so the sort moves
 * narrow rows; and, unlike `limit $n`, it leaves no value for a prepared statement's generic plan to
 * guess (it guesses a small page, and starts fast: see `wholeList`).
 */
export function pageClause(params: Params, input: { limit?: number; offset?: number }): string {
  if (input.limit === undefined && input.offset === undefined) return 'limit all';
  return `limit ${params.add(input.limit ?? null)}::int8 offset ${params.add(input.offset ?? 0)}::int8`;
}
