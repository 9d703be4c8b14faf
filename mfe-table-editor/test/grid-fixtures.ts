import { permissionsAnswer, type MockAnswer } from '@dash/shell-sdk/testing';
import type { OrgRole, PgColumn, PgTable, RouteReply, tableEditorRoutes } from '@dash/contracts';
import { entitiesReply, schemasReply, tablesReply } from './fixtures';

type Rows = RouteReply<typeof tableEditorRoutes.selectRows>;

export const API = '/api/pg-meta/default';
export const COUNTRIES_ID = 16385;
export const CITIES_ID = 17000;
export const COUNTRIES_URL = `/project/default/editor/${COUNTRIES_ID}`;
export const SELECT = `POST ${API}/tables/${COUNTRIES_ID}/rows/select`;
export const COUNT = `POST ${API}/tables/${COUNTRIES_ID}/rows/count`;
export const UPDATE = `PATCH ${API}/tables/${COUNTRIES_ID}/rows`;
export const INSERT = `POST ${API}/tables/${COUNTRIES_ID}/rows`;
export const DELETE = `POST ${API}/tables/${COUNTRIES_ID}/rows/delete`;
export const TRUNCATE = `POST ${API}/tables/${COUNTRIES_ID}/rows/truncate`;
export const VALUE = `POST ${API}/tables/${COUNTRIES_ID}/rows/value`;
export const EXPORT = `POST ${API}/tables/${COUNTRIES_ID}/rows/export`;

/** A catalog column of `table` (in public) with the catalog's defaults: nullable, no default, not unique. */
export function pgColumn(tableId: number, table: string, position: number, name: string, format: string, extra: Partial<PgColumn> = {}): PgColumn {
  return {
    id: `${tableId}.${position}`,
    table_id: tableId,
    schema: 'public',
    table,
    ordinal_position: position,
    name,
    default_value: null,
    data_type: format,
    format,
    is_identity: false,
    identity_generation: null,
    is_generated: false,
    is_nullable: true,
    is_updatable: true,
    is_unique: false,
    enums: [],
    check: null,
    comment: null,
    is_encrypted: false,
    ...extra,
  };
}

const col = (position: number, name: string, format: string, extra: Partial<PgColumn> = {}) => pgColumn(COUNTRIES_ID, 'countries', position, name, format, extra);

export const countriesColumns: PgColumn[] = [
  col(1, 'id', 'int8', { data_type: 'bigint', is_identity: true, identity_generation: 'BY DEFAULT', is_nullable: false }),
  col(2, 'name', 'text', { is_nullable: false }),
  col(3, 'data', 'jsonb'),
  col(4, 'founded', 'timestamptz', { data_type: 'timestamp with time zone' }),
  col(5, 'active', 'bool', { data_type: 'boolean', default_value: 'true' }),
  col(6, 'continent', 'continent', { data_type: 'USER-DEFINED', enums: ['Africa', 'Europe'] }),
  col(7, 'secret', 'text', { is_encrypted: true }),
  col(8, 'capital_id', 'int8', { data_type: 'bigint' }),
];

export const countriesTable: PgTable = {
  ...tablesReply[0],
  columns: countriesColumns,
  relationships: [
    {
      id: 30001,
      constraint_name: 'countries_capital_id_fkey',
      source_schema: 'public',
      source_table_name: 'countries',
      source_column_name: 'capital_id',
      target_table_schema: 'public',
      target_table_name: 'cities',
      target_column_name: 'id',
      deletion_action: 'NO ACTION',
      update_action: 'NO ACTION',
    },
  ],
};

export const noKeyTable: PgTable = { ...countriesTable, primary_keys: [] };

export const citiesListEntry: PgTable = { ...tablesReply[1], id: CITIES_ID, name: 'cities' };

export function countryRow(id: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    name: `Country ${id}`,
    data: { iso: `C${id}` },
    founded: '2020-01-01T00:00:00.000Z',
    active: true,
    continent: 'Europe',
    secret: 'xxx',
    capital_id: id * 10,
    ...extra,
  };
}

export function rowsReply(from: number, n: number, truncated: Rows['truncated'] = []): Rows {
  return { rows: Array.from({ length: n }, (_, i) => countryRow(from + i)), truncated };
}

/** The answers a grid test starts from; pass overrides by key. */
export function gridAnswers(role: OrgRole, overrides: Record<string, MockAnswer> = {}): Record<string, MockAnswer> {
  return {
    ...permissionsAnswer('default', role),
    [`GET ${API}/schemas`]: { body: schemasReply },
    [`GET ${API}/entities`]: { body: entitiesReply },
    [`GET ${API}/tables`]: { body: [...tablesReply, citiesListEntry] },
    [`GET ${API}/tables/${COUNTRIES_ID}`]: { body: countriesTable },
    [SELECT]: { body: rowsReply(1, 3) },
    [COUNT]: { body: { count: 3, estimate: false } },
    ...overrides,
  };
}
