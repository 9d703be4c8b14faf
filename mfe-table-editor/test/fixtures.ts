import type { Entity, RouteReply, pgMetaRoutes, tableEditorRoutes } from '@dash/contracts';

export const schemasReply: RouteReply<typeof pgMetaRoutes.listSchemas> = [
  { id: 2200, name: 'public', owner: 'pg_database_owner' },
  { id: 16390, name: 'sales', owner: 'postgres' },
];

export const publicEntities: Entity[] = [
  { id: 16400, schema: 'public', name: 'active_profiles', type: 'view', comment: null },
  { id: 16385, schema: 'public', name: 'countries', type: 'table', comment: 'ISO 3166 countries' },
  { id: 16410, schema: 'public', name: 'events', type: 'partitioned_table', comment: null },
  { id: 16392, schema: 'public', name: 'profiles', type: 'table', comment: null },
];

export const entitiesReply: RouteReply<typeof pgMetaRoutes.listEntities> = { data: publicEntities, hasMore: false };

/** A full first page (ENTITY_PAGE_SIZE items) that says more exist. */
export function fullPage(schema: string, from: number): RouteReply<typeof pgMetaRoutes.listEntities> {
  return {
    data: Array.from({ length: 100 }, (_, i) => ({
      id: 20000 + from + i,
      schema,
      name: `table_${String(from + i).padStart(3, '0')}`,
      type: 'table' as const,
      comment: null,
    })),
    hasMore: true,
  };
}

export const tablesReply: RouteReply<typeof tableEditorRoutes.listTables> = [
  {
    id: 16385,
    schema: 'public',
    name: 'countries',
    rls_enabled: true,
    rls_forced: false,
    replica_identity: 'DEFAULT',
    bytes: 73728,
    size: '72 kB',
    live_rows_estimate: 1234,
    dead_rows_estimate: 3,
    comment: 'ISO 3166 countries',
    primary_keys: [{ schema: 'public', table_name: 'countries', name: 'id', table_id: 16385 }],
    relationships: [],
  },
  {
    id: 16392,
    schema: 'public',
    name: 'profiles',
    rls_enabled: false,
    rls_forced: false,
    replica_identity: 'DEFAULT',
    bytes: 16384,
    size: '16 kB',
    live_rows_estimate: 0,
    dead_rows_estimate: 0,
    comment: null,
    primary_keys: [],
    relationships: [],
  },
];
