import type { PgTable, TableCreate, TableUpdate } from '@dash/contracts';
import { columnFields, IDENTIFIER_MAX_LENGTH, NEW_COLUMN, validateColumn, type ColumnErrors, type ColumnFormValues } from './column-form';

/** One column row of the new-table form. */
export type TableColumnRow = Omit<ColumnFormValues, 'foreignKey'>;

export interface TableFormValues {
  name: string;
  comment: string;
  rlsEnabled: boolean;
  /** New tables only. */
  columns: TableColumnRow[];
}

export const TABLE_NAME_REQUIRED = 'Please assign a name for your table';
export const COLUMN_NAME_TAKEN = 'Column names must be unique';

export function newColumnRow(values: Partial<TableColumnRow> = {}): TableColumnRow {
  const { foreignKey: _ignored, ...column } = NEW_COLUMN;
  return { ...column, ...values };
}

/** A new table starts like a professional dashboard's: an identity primary key and a creation time. */
export function newTableValues(): TableFormValues {
  return {
    name: '',
    comment: '',
    rlsEnabled: true,
    columns: [
      newColumnRow({ name: 'id', format: 'int8', isIdentity: true, isPrimaryKey: true, isNullable: false }),
      newColumnRow({ name: 'created_at', format: 'timestamptz', defaultValue: 'now()', isNullable: false }),
    ],
  };
}

export function tableToFormValues(table: Pick<PgTable, 'name' | 'comment' | 'rls_enabled'>): TableFormValues {
  return { name: table.name, comment: table.comment ?? '', rlsEnabled: table.rls_enabled, columns: [] };
}

export function tableCreatePayload(schema: string, values: TableFormValues): TableCreate {
  return {
    schema,
    name: values.name.trim(),
    comment: values.comment.trim() === '' ? null : values.comment,
    rls_enabled: values.rlsEnabled,
    columns: values.columns.map((row) => columnFields(row)),
  };
}

/** Only the fields that changed; empty when nothing did. */
export function tableUpdatePayload(table: Pick<PgTable, 'name' | 'comment' | 'rls_enabled'>, values: TableFormValues): Partial<TableUpdate> {
  const changed: Partial<TableUpdate> = {};
  const name = values.name.trim();
  const comment = values.comment.trim() === '' ? null : values.comment;
  if (name !== table.name) changed.name = name;
  if (comment !== (table.comment ?? null)) changed.comment = comment;
  if (values.rlsEnabled !== table.rls_enabled) changed.rls_enabled = values.rlsEnabled;
  return changed;
}

export interface TableErrors {
  name?: string;
  columns?: ColumnErrors[];
}

export function validateTable(values: TableFormValues, creating: boolean): TableErrors {
  const errors: TableErrors = {};
  const name = values.name?.trim() ?? '';
  if (!name) errors.name = TABLE_NAME_REQUIRED;
  else if (name.length > IDENTIFIER_MAX_LENGTH) errors.name = `Table names can be at most ${IDENTIFIER_MAX_LENGTH} characters`;
  if (creating) {
    const seen = new Set<string>();
    const columnErrors = values.columns.map((row) => {
      const rowErrors = validateColumn(row);
      const rowName = row.name?.trim() ?? '';
      if (!rowErrors.name && seen.has(rowName)) rowErrors.name = COLUMN_NAME_TAKEN;
      seen.add(rowName);
      return rowErrors;
    });
    if (columnErrors.some((e) => Object.keys(e).length > 0)) errors.columns = columnErrors;
  }
  return errors;
}
