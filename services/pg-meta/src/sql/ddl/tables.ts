import type { TableCreate, TableUpdate } from '@dash/contracts';
import { badRequest } from '@dash/service-kit';
import { columnDefinition, commentOnColumnSql, primaryKeyStatements, type PrimaryKey } from './columns';
import { commentValue, ident, qualified, type QualifiedName } from './names';

/** Where a new table goes when the body names no schema (postgres-meta's default). */
export const DEFAULT_TABLE_SCHEMA = 'public';

/** The schema and name of the table a create body makes. */
export const createdTable = (input: TableCreate): QualifiedName => ({ schema: input.schema ?? DEFAULT_TABLE_SCHEMA, name: input.name });

export function commentOnTableSql(table: QualifiedName, comment: string | null): string {
  return `comment on table ${qualified(table)} is ${commentValue(comment)}`;
}

/**
 * A new table with its first columns if any (the ones marked as primary key form its primary key, in
 * order), then its comments and row-level security. The caller runs them in one transaction.
 */
export function createTableStatements(input: TableCreate): string[] {
  const table = createdTable(input);
  const columns = input.columns ?? [];
  const definitions = columns.map((column) => columnDefinition(column));
  const keyColumns = columns.filter((column) => column.isPrimaryKey).map((column) => ident(column.name));
  if (keyColumns.length > 0) definitions.push(`primary key (${keyColumns.join(', ')})`);
  const body = definitions.length > 0 ? ` (\n  ${definitions.join(',\n  ')}\n)` : ' ()';
  const statements = [`create table ${qualified(table)}${body}`];
  if (input.comment !== undefined && input.comment !== null) statements.push(commentOnTableSql(table, input.comment));
  for (const column of columns) {
    if (column.comment !== undefined && column.comment !== null) statements.push(commentOnColumnSql(table, column.name, column.comment));
  }
  if (input.rls_enabled) statements.push(`alter table ${qualified(table)} enable row level security`);
  return statements;
}

/**
 * Changes a table: comment, row-level security, replica identity and primary key first (under its
 * current name; `primaryKey` is the current key, needed when `primary_keys` replaces it), then the new
 * name, then the new schema.
 */
export function updateTableStatements(current: QualifiedName, patch: TableUpdate, primaryKey: PrimaryKey | null = null): string[] {
  const statements: string[] = [];
  let table = { ...current };
  const alter = () => `alter table ${qualified(table)}`;
  if (patch.comment !== undefined) statements.push(commentOnTableSql(table, patch.comment));
  if (patch.rls_enabled !== undefined) statements.push(`${alter()} ${patch.rls_enabled ? 'enable' : 'disable'} row level security`);
  if (patch.rls_forced !== undefined) statements.push(`${alter()} ${patch.rls_forced ? 'force' : 'no force'} row level security`);
  if (patch.replica_identity === 'INDEX') {
    if (patch.replica_identity_index === undefined) throw badRequest('replica_identity INDEX needs replica_identity_index: the name of a unique index of the table');
    statements.push(`${alter()} replica identity using index ${ident(patch.replica_identity_index)}`);
  } else if (patch.replica_identity !== undefined) {
    statements.push(`${alter()} replica identity ${patch.replica_identity.toLowerCase()}`);
  }
  if (patch.primary_keys !== undefined) {
    statements.push(...primaryKeyStatements(table, primaryKey, patch.primary_keys.map((key) => key.name)));
  }
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
