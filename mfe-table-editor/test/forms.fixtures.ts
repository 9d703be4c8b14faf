import type { PgColumn, PgTable } from '@dash/contracts';

const base = { table_id: 16392, schema: 'public', table: 'profiles', is_generated: false, is_updatable: true, enums: [], check: null, comment: null, is_encrypted: false };

function column(ordinal: number, name: string, rest: Partial<PgColumn>): PgColumn {
  return {
    ...base,
    id: `16392.${ordinal}`,
    ordinal_position: ordinal,
    name,
    default_value: null,
    data_type: 'text',
    format: 'text',
    is_identity: false,
    identity_generation: null,
    is_nullable: true,
    is_unique: false,
    ...rest,
  };
}

export const profileColumns: PgColumn[] = [
  column(1, 'id', { data_type: 'bigint', format: 'int8', is_identity: true, identity_generation: 'BY DEFAULT', is_nullable: false, is_unique: true }),
  column(2, 'username', { default_value: "'it''s me'::text", comment: 'Shown to others', check: 'length(username) < 40' }),
  column(3, 'tags', { data_type: 'ARRAY', format: '_text', default_value: "'{}'::text[]" }),
  column(4, 'created_at', { data_type: 'timestamp with time zone', format: 'timestamptz', default_value: 'now()', is_nullable: false }),
  column(5, 'country_id', { data_type: 'bigint', format: 'int8' }),
  column(6, 'mood', { data_type: 'USER-DEFINED', format: 'mood', enums: ['happy', 'sad'] }),
];

export const profilesTable: PgTable = {
  id: 16392,
  schema: 'public',
  name: 'profiles',
  comment: null,
  rls_enabled: true,
  rls_forced: false,
  replica_identity: 'DEFAULT',
  bytes: 16384,
  size: '16 kB',
  live_rows_estimate: 3,
  dead_rows_estimate: 0,
  primary_keys: [{ schema: 'public', table_name: 'profiles', name: 'id', table_id: 16392 }],
  relationships: [
    {
      id: 20001,
      constraint_name: 'profiles_country_id_fkey',
      source_schema: 'public',
      source_table_name: 'profiles',
      source_column_name: 'country_id',
      target_table_schema: 'public',
      target_table_name: 'countries',
      target_column_name: 'id',
      deletion_action: 'CASCADE',
      update_action: 'NO ACTION',
    },
  ],
  columns: profileColumns,
};

export const countryColumns: PgColumn[] = [
  { ...column(1, 'id', { data_type: 'bigint', format: 'int8', is_nullable: false }), id: '16385.1', table_id: 16385, table: 'countries' },
  { ...column(2, 'name', {}), id: '16385.2', table_id: 16385, table: 'countries' },
];
