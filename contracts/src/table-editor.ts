import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, Ok, OidParams, RefParams } from './route';
import { access, Permission } from './permissions';
import { CSV_EXPORT_ROW_LIMIT, TABLE_PAGE_SIZES } from './constants';

/*
 * The table editor's routes. The catalog (`/tables`, `/columns`, `/views`, ...) speaks the
 * postgres-meta dialect: its paths, query parameters, field names and integer ids. The row routes
 * are our own (the spec shows no paths for them): the browser sends filters, sorts and values as
 * data, and the service builds every statement with quoted identifiers and literals.
 */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const SchemaList = Type.String({ maxLength: 10_000 });
const Identifier = Type.String({ minLength: 1, maxLength: 63 });

export const TableIdParams = Type.Object({ ref: RefParams.properties.ref, id: Type.Integer({ minimum: 1 }) });
/** postgres-meta's column id: `{tableId}.{ordinal_position}`. */
export const ColumnIdParams = Type.Object({
  ref: RefParams.properties.ref,
  id: Type.String({ pattern: '^[0-9]+\\.[0-9]+$', maxLength: 32 }),
});

// ---------------------------------------------------------------- catalog (postgres-meta dialect)

export const ForeignKeyAction = Type.Union([
  Type.Literal('NO ACTION'),
  Type.Literal('RESTRICT'),
  Type.Literal('CASCADE'),
  Type.Literal('SET NULL'),
  Type.Literal('SET DEFAULT'),
]);
export type ForeignKeyAction = Static<typeof ForeignKeyAction>;

export const PgColumn = Type.Object({
  /** `{table_id}.{ordinal_position}` */
  id: Type.String(),
  table_id: Type.Integer(),
  schema: Type.String(),
  table: Type.String(),
  ordinal_position: Type.Integer(),
  name: Type.String(),
  /** The default expression as Postgres prints it (`nextval('t_id_seq'::regclass)`, `'x'::text`). */
  default_value: Nullable(Type.String()),
  /** information_schema's data type (`integer`, `ARRAY`, `USER-DEFINED`, ...). */
  data_type: Type.String(),
  /** The type's name (`int4`, `_text`, `my_enum`). */
  format: Type.String(),
  is_identity: Type.Boolean(),
  identity_generation: Nullable(Type.Union([Type.Literal('ALWAYS'), Type.Literal('BY DEFAULT')])),
  is_generated: Type.Boolean(),
  is_nullable: Type.Boolean(),
  is_updatable: Type.Boolean(),
  is_unique: Type.Boolean(),
  /** Labels of an enum type, in order; empty otherwise. */
  enums: Type.Array(Type.String()),
  /** A single-column CHECK constraint's expression, if any. */
  check: Nullable(Type.String()),
  comment: Nullable(Type.String()),
  /** Encrypted with a pgsodium security label (`ENCRYPT WITH KEY ...`); such cells cannot be edited. */
  is_encrypted: Type.Boolean(),
});
export type PgColumn = Static<typeof PgColumn>;

export const PgPrimaryKey = Type.Object({
  schema: Type.String(),
  table_name: Type.String(),
  name: Type.String(),
  table_id: Type.Integer(),
});
export type PgPrimaryKey = Static<typeof PgPrimaryKey>;

/** One column pair of a foreign key (a multi-column key gives one entry per pair). */
export const PgRelationship = Type.Object({
  /** The constraint's oid. */
  id: Type.Integer(),
  constraint_name: Type.String(),
  source_schema: Type.String(),
  source_table_name: Type.String(),
  source_column_name: Type.String(),
  target_table_schema: Type.String(),
  target_table_name: Type.String(),
  target_column_name: Type.String(),
  deletion_action: ForeignKeyAction,
  update_action: ForeignKeyAction,
});
export type PgRelationship = Static<typeof PgRelationship>;

export const ReplicaIdentity = Type.Union([Type.Literal('DEFAULT'), Type.Literal('INDEX'), Type.Literal('FULL'), Type.Literal('NOTHING')]);
export type ReplicaIdentity = Static<typeof ReplicaIdentity>;

const TableBase = {
  id: Type.Integer(),
  schema: Type.String(),
  name: Type.String(),
  comment: Nullable(Type.String()),
  /** Present when `include_columns` is not false. */
  columns: Type.Optional(Type.Array(PgColumn)),
};

/** postgres-meta's table, with its columns, primary keys and relationships. */
export const PgTable = Type.Object({
  ...TableBase,
  rls_enabled: Type.Boolean(),
  rls_forced: Type.Boolean(),
  replica_identity: ReplicaIdentity,
  bytes: Type.Integer(),
  size: Type.String(),
  live_rows_estimate: Type.Integer(),
  dead_rows_estimate: Type.Integer(),
  primary_keys: Type.Array(PgPrimaryKey),
  /** Foreign keys from and to this table. */
  relationships: Type.Array(PgRelationship),
});
export type PgTable = Static<typeof PgTable>;

export const PgView = Type.Object({ ...TableBase, is_updatable: Type.Boolean() });
export type PgView = Static<typeof PgView>;
export const PgMaterializedView = Type.Object({ ...TableBase, is_populated: Type.Boolean() });
export type PgMaterializedView = Static<typeof PgMaterializedView>;
export const PgForeignTable = Type.Object(TableBase);
export type PgForeignTable = Static<typeof PgForeignTable>;

const CatalogQuery = Type.Object({
  included_schemas: Type.Optional(SchemaList),
  excluded_schemas: Type.Optional(SchemaList),
  include_system_schemas: Type.Optional(Type.Boolean()),
  include_columns: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
});

/** The column form's foreign key: the referenced column and the actions. */
export const ForeignKeyInput = Type.Object({
  schema: Identifier,
  table: Identifier,
  column: Identifier,
  deletion_action: Type.Optional(ForeignKeyAction),
  update_action: Type.Optional(ForeignKeyAction),
});
export type ForeignKeyInput = Static<typeof ForeignKeyInput>;

export const DefaultValueFormat = Type.Union([Type.Literal('expression'), Type.Literal('literal')]);
export type DefaultValueFormat = Static<typeof DefaultValueFormat>;
export const IdentityGeneration = Type.Union([Type.Literal('BY DEFAULT'), Type.Literal('ALWAYS')]);
export type IdentityGeneration = Static<typeof IdentityGeneration>;

/** A type name as the column form sends it: a known or user type, `[]` appended for arrays. */
const TypeName = Type.String({ minLength: 1, maxLength: 200 });

const ColumnFields = {
  name: Identifier,
  type: TypeName,
  comment: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  check: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  defaultValue: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  defaultValueFormat: Type.Optional(DefaultValueFormat),
  isIdentity: Type.Optional(Type.Boolean()),
  isNullable: Type.Optional(Type.Boolean()),
  isUnique: Type.Optional(Type.Boolean()),
  isPrimaryKey: Type.Optional(Type.Boolean()),
  foreignKey: Type.Optional(Nullable(ForeignKeyInput)),
};

/** The spec's column create payload (plus the form's foreign key), applied in one transaction. */
export const ColumnCreate = Type.Object({ tableId: Type.Integer({ minimum: 1 }), ...ColumnFields }, { additionalProperties: false });
export type ColumnCreate = Static<typeof ColumnCreate>;

/** The spec's column update payload: only the fields that changed. */
export const ColumnUpdate = Type.Partial(Type.Object(ColumnFields), { additionalProperties: false, minProperties: 1 });
export type ColumnUpdate = Static<typeof ColumnUpdate>;

/**
 * A default value in postgres-meta's bodies: SQL text with `default_value_format: 'expression'`,
 * otherwise a literal (a string, number or boolean, cast by Postgres to the column's type).
 */
const PgDefaultValue = Type.Union([Type.String({ maxLength: 10_000 }), Type.Number(), Type.Boolean(), Type.Null()]);

/** postgres-meta's column create body (snake_case). Identity columns are `BY DEFAULT` unless `identity_generation` says otherwise. */
export const PgColumnCreate = Type.Object(
  {
    table_id: Type.Integer({ minimum: 1 }),
    name: Identifier,
    type: TypeName,
    default_value: Type.Optional(PgDefaultValue),
    default_value_format: Type.Optional(DefaultValueFormat),
    is_identity: Type.Optional(Type.Boolean()),
    identity_generation: Type.Optional(IdentityGeneration),
    is_nullable: Type.Optional(Type.Boolean()),
    is_primary_key: Type.Optional(Type.Boolean()),
    is_unique: Type.Optional(Type.Boolean()),
    comment: Type.Optional(Type.String({ maxLength: 10_000 })),
    check: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  { additionalProperties: false },
);
export type PgColumnCreate = Static<typeof PgColumnCreate>;

/** postgres-meta's column update body: `drop_default` drops the default; a null `check` drops the check. */
export const PgColumnUpdate = Type.Object(
  {
    name: Type.Optional(Identifier),
    type: Type.Optional(TypeName),
    drop_default: Type.Optional(Type.Boolean()),
    default_value: Type.Optional(PgDefaultValue),
    default_value_format: Type.Optional(DefaultValueFormat),
    is_identity: Type.Optional(Type.Boolean()),
    identity_generation: Type.Optional(IdentityGeneration),
    is_nullable: Type.Optional(Type.Boolean()),
    is_unique: Type.Optional(Type.Boolean()),
    comment: Type.Optional(Type.String({ maxLength: 10_000 })),
    check: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type PgColumnUpdate = Static<typeof PgColumnUpdate>;

/** Either body: the spec's (camelCase, from the column form) or postgres-meta's (snake_case). */
export const ColumnCreateBody = Type.Union([ColumnCreate, PgColumnCreate]);
export type ColumnCreateBody = Static<typeof ColumnCreateBody>;
export const ColumnUpdateBody = Type.Union([ColumnUpdate, PgColumnUpdate]);
export type ColumnUpdateBody = Static<typeof ColumnUpdateBody>;

/**
 * A new table, with its first columns (none for postgres-meta's body), created in one transaction.
 * The schema is `public` when not given, as in postgres-meta.
 */
export const TableCreate = Type.Object(
  {
    schema: Type.Optional(Identifier),
    name: Identifier,
    comment: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
    rls_enabled: Type.Optional(Type.Boolean()),
    columns: Type.Optional(Type.Array(Type.Object(ColumnFields, { additionalProperties: false }), { maxItems: 1600 })),
  },
  { additionalProperties: false },
);
export type TableCreate = Static<typeof TableCreate>;

/** postgres-meta's table update body. `replica_identity: 'INDEX'` names its index; `primary_keys` replaces the key. */
export const TableUpdate = Type.Object(
  {
    name: Type.Optional(Identifier),
    schema: Type.Optional(Identifier),
    comment: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
    rls_enabled: Type.Optional(Type.Boolean()),
    rls_forced: Type.Optional(Type.Boolean()),
    replica_identity: Type.Optional(ReplicaIdentity),
    replica_identity_index: Type.Optional(Identifier),
    primary_keys: Type.Optional(Type.Array(Type.Object({ name: Identifier }, { additionalProperties: false }), { maxItems: 32 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type TableUpdate = Static<typeof TableUpdate>;

const Cascade = Type.Object({ cascade: Type.Optional(Type.Boolean()) });

// ---------------------------------------------------------------- rows

/** Filter operators by their URL abbreviation (spec section 3). */
export const FILTER_OPERATORS = [
  { abbrev: 'eq', symbol: '=' },
  { abbrev: 'neq', symbol: '<>' },
  { abbrev: 'gt', symbol: '>' },
  { abbrev: 'lt', symbol: '<' },
  { abbrev: 'gte', symbol: '>=' },
  { abbrev: 'lte', symbol: '<=' },
  { abbrev: '~~', symbol: 'like' },
  { abbrev: '~~*', symbol: 'ilike' },
  { abbrev: 'in', symbol: 'in' },
  { abbrev: 'is', symbol: 'is' },
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number]['abbrev'];
export const FilterOperator = Type.Union(FILTER_OPERATORS.map((o) => Type.Literal(o.abbrev)));

/** `is` takes one of these; `in` takes a comma list; the others one value. */
export const IS_FILTER_VALUES = ['null', 'not null', 'true', 'false'] as const;

export const RowFilter = Type.Object({
  column: Identifier,
  operator: FilterOperator,
  value: Type.String({ maxLength: 100_000 }),
});
export type RowFilter = Static<typeof RowFilter>;

export const RowSort = Type.Object({ column: Identifier, ascending: Type.Boolean() });
export type RowSort = Static<typeof RowSort>;

/**
 * Acting as a database role: rows are read and written inside one transaction with `set local role`
 * and `request.jwt.claims`, so row-level security applies. `authenticated` takes the user's id (the
 * `sub` claim).
 */
export const Impersonation = Type.Object({
  role: Identifier,
  userId: Type.Optional(Type.String({ maxLength: 200 })),
});
export type Impersonation = Static<typeof Impersonation>;

/**
 * A cell value as JSON. Strings are sent as the user typed them and cast by Postgres to the column's
 * type; null is SQL NULL.
 *
 * json/jsonb columns. Written: a string is the JSON text to store (so `"null"` stores the JSON value
 * null and `'"str"'` the JSON string), any other value is stored as that JSON value, and null is SQL
 * NULL. Read: the parsed JSON value, where the JSON value null and SQL NULL are both null; replies tell
 * them apart with a separate list of the cells holding JSON null (RowsPage.jsonNulls,
 * RowWritten.jsonNulls, FullValue.jsonNull), left out when there is none. The list is an addition, so
 * a client that ignores it sees exactly what it saw before (both as NULL), and a client reading it
 * from a service that does not send it sees no JSON null, also as before.
 */
export const CellValue = Type.Unknown();
export const RowValues = Type.Record(Type.String({ minLength: 1, maxLength: 63 }), CellValue);
export type RowValues = Static<typeof RowValues>;
/** A row's primary-key values, which identify it for update, delete and full-value loads. */
export const RowMatch = Type.Record(Type.String({ minLength: 1, maxLength: 63 }), CellValue, { minProperties: 1 });
export type RowMatch = Static<typeof RowMatch>;

const Filters = Type.Array(RowFilter, { maxItems: 50 });
const Sorts = Type.Array(RowSort, { maxItems: 20 });

export const RowsQuery = Type.Object({
  filters: Type.Optional(Filters),
  sorts: Type.Optional(Sorts),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  limit: Type.Optional(Type.Union(TABLE_PAGE_SIZES.map((n) => Type.Literal(n)))),
  role: Type.Optional(Impersonation),
});
export type RowsQuery = Static<typeof RowsQuery>;

export const RowsPage = Type.Object({
  rows: Type.Array(RowValues),
  /** Cells cut server-side (long text, JSON and arrays, about 10 KB); their value ends with '...'. */
  truncated: Type.Array(Type.Object({ row: Type.Integer(), column: Type.String() })),
  /** json/jsonb cells holding the JSON value null (their value is null; see CellValue). Absent when none. */
  jsonNulls: Type.Optional(Type.Array(Type.Object({ row: Type.Integer(), column: Type.String() }))),
});
export type RowsPage = Static<typeof RowsPage>;

export const RowCountQuery = Type.Object({
  filters: Type.Optional(Filters),
  role: Type.Optional(Impersonation),
  /** Count exactly even above the estimate threshold (the user asked for it). */
  exact: Type.Optional(Type.Boolean()),
});
export const RowCount = Type.Object({
  count: Type.Integer(),
  /** The planner's estimate, given instead of an exact count above 50,000 rows. */
  estimate: Type.Boolean(),
});
export type RowCount = Static<typeof RowCount>;

export const RowInsert = Type.Object({ values: RowValues, role: Type.Optional(Impersonation) });
export const RowUpdate = Type.Object({
  match: RowMatch,
  values: RowValues,
  /**
   * The values the edit was based on, by column, as the rows routes returned them (a cell edit: the
   * edited cell's previous value; a row save: every column the panel showed). If any differs from the
   * row now, the reply is a 409 (code ROW_CHANGED) carrying the current row, and nothing is written.
   * A cell the page holds cut is no basis: leave it out (its cut text never matches). Optional, so
   * older clients keep working; without it the update overwrites whatever is there.
   */
  expected: Type.Optional(RowValues),
  /**
   * The json/jsonb columns of `expected` whose null is the JSON value null (the page's `jsonNulls`);
   * any other null in `expected` is SQL NULL, so a change from one to the other is a conflict too.
   */
  expectedJsonNulls: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 63 }), { maxItems: 1600 })),
  role: Type.Optional(Impersonation),
});
export type RowUpdate = Static<typeof RowUpdate>;

/** The texts of a row update refused because someone else changed the row (code ROW_CHANGED). */
export const RowConflictMessages = {
  /** The 409's message. */
  reply: 'The row was changed by someone else since it was read; nothing was written',
  title: 'Row changed by someone else',
  cellNotSaved: (column: string, typed: string) =>
    `Your edit of ${column} (${typed}) was not saved: someone else changed this row since it was loaded. The grid now shows its current values.`,
  panelNotSaved:
    'Someone else changed this row since you opened it, so your changes were not saved. Your edits are kept below; fields they changed show the current value. Save again to write your values over theirs.',
  fieldChanged: (now: string) => `Changed by someone else; now: ${now}`,
} as const;
/** Either the listed rows (by primary key) or every row matching the filters (the 'all rows' selection). */
export const RowDelete = Type.Object({
  matches: Type.Optional(Type.Array(RowMatch, { minItems: 1, maxItems: 10_000 })),
  filters: Type.Optional(Filters),
  role: Type.Optional(Impersonation),
});
export const RowValueQuery = Type.Object({ match: RowMatch, column: Identifier, role: Type.Optional(Impersonation) });

/** One written row, as the database returned it; `jsonNulls` names its columns holding JSON null (see CellValue). */
export const RowWritten = Type.Object({ row: RowValues, jsonNulls: Type.Optional(Type.Array(Type.String())) });
export type RowWritten = Static<typeof RowWritten>;
export const RowsDeleted = Type.Object({ deleted: Type.Integer() });
/** `jsonNull`: the value is the JSON value null, not SQL NULL (see CellValue). */
export const FullValue = Type.Object({ value: CellValue, jsonNull: Type.Optional(Type.Literal(true)) });

/** CSV export: the listed rows, or every row matching the filters. The reply is `text/csv`, streamed. */
export const RowsExport = Type.Object({
  filters: Type.Optional(Filters),
  sorts: Type.Optional(Sorts),
  matches: Type.Optional(Type.Array(RowMatch, { minItems: 1, maxItems: CSV_EXPORT_ROW_LIMIT })),
  role: Type.Optional(Impersonation),
});

/**
 * CSV import into an existing table. The body is the CSV file (`text/csv`), streamed to
 * `COPY ... FROM STDIN` in one transaction. `columns` is a JSON array giving, for each CSV column in
 * order, the table column it fills or null to skip it.
 */
export const CsvImportQuery = Type.Object({
  columns: Type.String({ minLength: 2, maxLength: 200_000 }),
  header: Type.Optional(Type.Boolean({ default: true })),
  delimiter: Type.Optional(Type.String({ minLength: 1, maxLength: 1 })),
});
export const CsvImportColumns = Type.Array(Nullable(Identifier), { minItems: 1, maxItems: 1600 });

/** CSV import into a new table: `table` is a JSON `TableCreate`; its columns match the CSV's columns in order. */
export const CsvImportNewTableQuery = Type.Object({
  table: Type.String({ minLength: 2, maxLength: 500_000 }),
  header: Type.Optional(Type.Boolean({ default: true })),
  delimiter: Type.Optional(Type.String({ minLength: 1, maxLength: 1 })),
});
export const CsvImported = Type.Object({ table_id: Type.Integer(), rows: Type.Integer() });
export type CsvImported = Static<typeof CsvImported>;

export const TableDefinition = Type.Object({ sql: Type.String() });

const read = access.project(Permission.TenantSqlAdminRead);
const write = access.project(Permission.TenantSqlAdminWrite);

export const tableEditorRoutes = {
  // catalog
  listTables: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/tables', params: RefParams, querystring: CatalogQuery, response: Type.Array(PgTable), access: read }),
  getTable: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/tables/:id', params: TableIdParams, response: PgTable, access: read }),
  createTable: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/tables', params: RefParams, body: TableCreate, response: PgTable, access: write }),
  updateTable: defineRoute({ service: 'pg-meta', method: 'PATCH', url: '/:ref/tables/:id', params: TableIdParams, body: TableUpdate, response: PgTable, access: write }),
  deleteTable: defineRoute({ service: 'pg-meta', method: 'DELETE', url: '/:ref/tables/:id', params: TableIdParams, querystring: Cascade, response: PgTable, access: write }),
  tableDefinition: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/tables/:id/definition', params: TableIdParams, response: TableDefinition, access: read }),
  listColumns: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/columns',
    params: RefParams,
    querystring: Type.Object({
      included_schemas: Type.Optional(SchemaList),
      excluded_schemas: Type.Optional(SchemaList),
      include_system_schemas: Type.Optional(Type.Boolean()),
      table_id: Type.Optional(Type.Integer({ minimum: 1 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
      offset: Type.Optional(Type.Integer({ minimum: 0 })),
    }),
    response: Type.Array(PgColumn),
    access: read,
  }),
  getColumn: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/columns/:id', params: ColumnIdParams, response: PgColumn, access: read }),
  createColumn: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/columns', params: RefParams, body: ColumnCreateBody, response: PgColumn, access: write }),
  updateColumn: defineRoute({ service: 'pg-meta', method: 'PATCH', url: '/:ref/columns/:id', params: ColumnIdParams, body: ColumnUpdateBody, response: PgColumn, access: write }),
  deleteColumn: defineRoute({ service: 'pg-meta', method: 'DELETE', url: '/:ref/columns/:id', params: ColumnIdParams, querystring: Cascade, response: PgColumn, access: write }),
  listViews: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/views', params: RefParams, querystring: CatalogQuery, response: Type.Array(PgView), access: read }),
  listMaterializedViews: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/materialized-views', params: RefParams, querystring: CatalogQuery, response: Type.Array(PgMaterializedView), access: read }),
  listForeignTables: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/foreign-tables', params: RefParams, querystring: CatalogQuery, response: Type.Array(PgForeignTable), access: read }),
  // One relation by id, with its columns, in any schema.
  getView: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/views/:id', params: OidParams, response: PgView, access: read }),
  getMaterializedView: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/materialized-views/:id', params: OidParams, response: PgMaterializedView, access: read }),
  getForeignTable: defineRoute({ service: 'pg-meta', method: 'GET', url: '/:ref/foreign-tables/:id', params: OidParams, response: PgForeignTable, access: read }),

  // rows: reading needs admin read; impersonating a role only narrows what is visible.
  selectRows: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/tables/:id/rows/select', params: TableIdParams, body: RowsQuery, response: RowsPage, access: read }),
  countRows: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/tables/:id/rows/count', params: TableIdParams, body: RowCountQuery, response: RowCount, access: read }),
  loadFullValue: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/tables/:id/rows/value', params: TableIdParams, body: RowValueQuery, response: FullValue, access: read }),
  insertRow: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/tables/:id/rows', params: TableIdParams, body: RowInsert, response: RowWritten, status: 201, access: write }),
  updateRow: defineRoute({ service: 'pg-meta', method: 'PATCH', url: '/:ref/tables/:id/rows', params: TableIdParams, body: RowUpdate, response: RowWritten, access: write }),
  deleteRows: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/tables/:id/rows/delete', params: TableIdParams, body: RowDelete, response: RowsDeleted, access: write }),
  truncateTable: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/tables/:id/rows/truncate', params: TableIdParams, response: Ok, access: write }),
  /** Reply: `text/csv`, streamed from `COPY ... TO STDOUT`. Refused above the export limit. */
  exportRows: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/tables/:id/rows/export', params: TableIdParams, body: RowsExport, response: Type.String(), access: read }),
  /** Body: `text/csv`. */
  importRows: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/tables/:id/rows/import', params: TableIdParams, querystring: CsvImportQuery, response: CsvImported, access: write }),
  /** Body: `text/csv`. Creates the table and fills it in one transaction. */
  importNewTable: defineRoute({ service: 'pg-meta', method: 'POST', url: '/:ref/tables/import', params: RefParams, querystring: CsvImportNewTableQuery, response: CsvImported, status: 201, access: write }),
};
