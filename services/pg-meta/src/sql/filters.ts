import { escapeLike } from '@dash/service-kit';

/** Schemas postgres-meta hides unless `include_system_schemas` is set. */
export const SYSTEM_SCHEMAS: readonly string[] = ['information_schema', 'pg_catalog', 'pg_toast'];

/** Per-session temporary schemas (`pg_temp_3`, `pg_toast_temp_3`): never listed. */
export const TEMP_SCHEMA_REGEX = '^pg_(toast_)?temp_[0-9]+$';

/** Splits postgres-meta's comma-separated schema list; blanks are dropped, names are trimmed. */
export function parseSchemaList(raw: string | undefined): string[] {
  if (!raw) return [];
  return [...new Set(raw.split(',').map((s) => s.trim()).filter((s) => s.length > 0))];
}

export interface SchemaFilterInput {
  included_schemas?: string;
  excluded_schemas?: string;
  include_system_schemas?: boolean;
}

/**
 * The schema filter as query parameters: `include` (null = any schema) and `exclude`.
 * As in postgres-meta, an explicit inclusion list wins over the default system-schema exclusion,
 * so `included_schemas=pg_catalog` lists pg_catalog; explicit exclusions always apply.
 */
export function schemaFilter(input: SchemaFilterInput): { include: string[] | null; exclude: string[] } {
  const include = parseSchemaList(input.included_schemas);
  const exclude = parseSchemaList(input.excluded_schemas);
  if (include.length > 0) return { include, exclude };
  const system = input.include_system_schemas ? [] : SYSTEM_SCHEMAS;
  return { include: null, exclude: [...new Set([...system, ...exclude])] };
}


/** A case-insensitive substring pattern for ILIKE, or null when the trimmed search is empty. */
export function containsPattern(search: string | undefined): string | null {
  const trimmed = (search ?? '').trim();
  return trimmed ? `%${escapeLike(trimmed)}%` : null;
}
