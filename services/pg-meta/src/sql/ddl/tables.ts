import type { TableCreate, TableUpdate } from '@dash/contracts';
import { columnDefinition, commentOnColumnSql } from './columns';
import { commentValue, ident, qualified, type QualifiedName } from './names';

export function commentOnTableSql(table: QualifiedName, comment: string | null): string {
  return `comment on table ${qualified(table)} is ${commentValue(comment)}`;
}

/**
 * A new table with its first columns (the ones marked as primary key form its primary key, in
 * order), then its comments and row-level security. The caller runs them in one transaction.
 */
export function createTableStatements(input: TableCreate): string[] {
  const table = { schema: input.schema, name: input.name };
  const definitions = input.columns.map((column) => columnDefinition(column));
  const keyColumns = input.columns.filter((column) => column.isPrimaryKey).map((column) => ident(column.name));
  if (keyColumns.length > 0) definitions.push(`primary key (${keyColumns.join(', ')})`);
  const body = definitions.length > 0 ? ` (\n  ${definitions.join(',\n  ')}\n)` : ' ()';
  const statements = [`create table ${qualified(table)}${body}`];
  if (input.comment !== undefined && input.comment !== null) statements.push(commentOnTableSql(table, input.comment));
  for (const column of input.columns) {
    if (column.comment !== undefined && column.comment !== null) statements.push(commentOnColumnSql(table, column.name, column.comment));
  }
  if (input.rls_enabled) statements.push(`alter table ${qualified(table)} enable row level security`);
  return statements;
}

/**
 * Changes a table: comment and row-level security first (under its current name), then the new name,
 * then the new schema.
 */
export function updateTableStatements(current: QualifiedName, patch: TableUpdate): string[] {
  const statements: string[] = [];
  let table = { ...current };
  const alter = () => `alter table ${qualified(table)}`;
  if (patch.comment !== undefined) statements.push(commentOnTableSql(table, patch.comment));
  if (patch.rls_enabled !== undefined) statements.push(`${alter()} ${patch.rls_enabled ? 'enable' : 'disable'} row level security`);
  if (patch.rls_forced !== undefined) statements.push(`${alter()} ${patch.rls_forced ? 'force' : 'no force'} row level security`);
  if (patch.name !== undefined && patch.name !== table.name) {
    statements.push(`${alter()} rename to ${ident(patch.name)}`);
    table = { ...table, name: patch.name };
  }
  if (patch.schema !== undefined && patch.schema !== table.schema) {
    statements.push(`${alter()} set schema ${ident(patch.schema)}`);
    table = { ...table, schema: patch.schema };
  }
  return statements;
}

export function dropTableSql(table: QualifiedName, cascade: boolean): string {
  return `drop table ${qualified(table)}${cascade ? ' cascade' : ''}`;
}
