import type { FastifyInstance } from 'fastify';
import { type PgColumn, tableEditorRoutes } from '@dash/contracts';
import { addRoute, notFound, projectQuery } from '@dash/service-kit';
import { withDdlTransaction, type DdlTransaction } from '../db/ddl';
import { listColumnsQuery } from '../sql/catalog/columns';
import { columnOrdinalQuery, columnStateQuery, primaryKeyQuery } from '../sql/catalog/ddl-state';
import { MAX_OID } from '../sql/catalog/relations';
import { addColumnStatements, columnCreateOf, columnPatchOf, dropColumnSql, updateColumnStatements, type ColumnState, type PrimaryKey } from '../sql/ddl/columns';
import { DdlMessages, type QualifiedName } from '../sql/ddl/names';
import { readTableName } from './tables';
import type { PgMetaContext } from '../app';

const MAX_ATTNUM = 32_767;

/** postgres-meta's column id `{tableId}.{ordinal}`; 404 when it cannot name a column. */
export function parseColumnId(id: string): { tableId: number; ordinal: number } {
  const [table, ordinal] = id.split('.').map(Number) as [number, number];
  if (!(table >= 1 && table <= MAX_OID && ordinal >= 1 && ordinal <= MAX_ATTNUM)) throw notFound(DdlMessages.columnNotFound(id));
  return { tableId: table, ordinal };
}

async function readColumn(tx: DdlTransaction, tableId: number, ordinal: number): Promise<PgColumn> {
  const [column] = await tx.query<PgColumn>(listColumnsQuery({ table_ids: [tableId], ordinal, include_system_schemas: true }));
  if (!column) throw notFound(DdlMessages.columnNotFound(`${tableId}.${ordinal}`));
  return column;
}

interface ColumnStateRow {
  schema: string;
  table: string;
  name: string;
  format: string;
  has_default: boolean;
  is_identity: boolean;
  primary_key: PrimaryKey | null;
  unique_constraints: string[];
  unique_indexes: QualifiedName[];
  check_constraints: string[];
  foreign_keys: string[];
}

async function readColumnState(tx: DdlTransaction, id: string): Promise<ColumnState & { tableId: number; ordinal: number }> {
  const { tableId, ordinal } = parseColumnId(id);
  const [row] = await tx.query<ColumnStateRow>(columnStateQuery(tableId, ordinal));
  if (!row) throw notFound(DdlMessages.columnNotFound(id));
  return {
    tableId,
    ordinal,
    table: { schema: row.schema, name: row.table },
    name: row.name,
    format: row.format,
    hasDefault: row.has_default,
    isIdentity: row.is_identity,
    primaryKey: row.primary_key,
    uniqueConstraints: row.unique_constraints,
    uniqueIndexes: row.unique_indexes,
    checkConstraints: row.check_constraints,
    foreignKeys: row.foreign_keys,
  };
}

export async function columnRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, tableEditorRoutes.listColumns, async ({ params, query }) => {
    const { table_id, ...filter } = query;
    if (table_id !== undefined && table_id > MAX_OID) return [];
    return projectQuery<PgColumn>(ctx.pools, params.ref, listColumnsQuery({ ...filter, ...(table_id !== undefined ? { table_ids: [table_id] } : {}) }));
  });

  addRoute(app, tableEditorRoutes.getColumn, async ({ params }) => {
    const { tableId, ordinal } = parseColumnId(params.id);
    const [column] = await projectQuery<PgColumn>(ctx.pools, params.ref, listColumnsQuery({ table_ids: [tableId], ordinal, include_system_schemas: true }));
    if (!column) throw notFound(DdlMessages.columnNotFound(params.id));
    return column;
  });

  addRoute(app, tableEditorRoutes.createColumn, async ({ params, body }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const { tableId, column } = columnCreateOf(body);
      const table = await readTableName(tx, tableId);
      const primaryKey = column.isPrimaryKey
        ? ((await tx.query<{ primary_key: PrimaryKey | null }>(primaryKeyQuery(tableId)))[0]?.primary_key ?? null)
        : null;
      await tx.run(addColumnStatements(table, column, primaryKey));
      const [added] = await tx.query<{ ordinal: number }>(columnOrdinalQuery(tableId, column.name));
      return readColumn(tx, tableId, added!.ordinal);
    }),
  );

  addRoute(app, tableEditorRoutes.updateColumn, async ({ params, body }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const state = await readColumnState(tx, params.id);
      await tx.run(updateColumnStatements(state, columnPatchOf(body)));
      // A rename or a type change keeps the column's ordinal, so its id stays.
      return readColumn(tx, state.tableId, state.ordinal);
    }),
  );

  addRoute(app, tableEditorRoutes.deleteColumn, async ({ params, query }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const state = await readColumnState(tx, params.id);
      const column = await readColumn(tx, state.tableId, state.ordinal);
      await tx.run([dropColumnSql(state.table, state.name, query.cascade === true)]);
      return column;
    }),
  );
}
