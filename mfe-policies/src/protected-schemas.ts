/**
 * Schemas the platform manages (auth, storage, extensions and the services' own): their tables and
 * policies are read-only on the policies screen (spec section 2), since the platform's services rely on
 * them as they are.
 */
export const PROTECTED_SCHEMAS: readonly string[] = [
  'auth',
  'cron',
  'extensions',
  'graphql',
  'graphql_public',
  'information_schema',
  'net',
  'pg_catalog',
  'pgbouncer',
  'pgsodium',
  'pgsodium_masks',
  'pgtle',
  'realtime',
  'storage',
  'supabase_functions',
  'supabase_migrations',
  'vault',
];

export const isProtectedSchema = (schema: string) => PROTECTED_SCHEMAS.includes(schema);
