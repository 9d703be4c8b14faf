import type { FastifyInstance } from 'fastify';
import { type PgTable, tableEditorRoutes } from '@dash/contracts';
import { addRoute, notFound, projectQuery } from '@dash/service-kit';
import { poolRunner, readTables, type CatalogRunner } from '../db/catalog';
import { withDdlTransaction, type DdlTransaction } from '../db/ddl';
import { relationDefinitionQuery } from '../sql/catalog/definition';
import { primaryKeyQuery, tableIdQuery, tableNameQuery } from '../sql/catalog/ddl-state';
import { MAX_OID } from '../sql/catalog/relations';
import { relationDefinitionSql, type RelationDefinition } from '../sql/ddl/definition';
import { DdlMessages, type QualifiedName } from '../sql/ddl/names';
import { createdTable, createTableStatements, dropTableSql, updateTableStatements } from '../sql/ddl/tables';
import type { PrimaryKey } from '../sql/ddl/columns';
import type { PgMetaContext } from '../app';

/** `GET /tables/:id` and the replies of writes: one table by id, in any schema; 404 when there is none. */
async function readTable(run: CatalogRunner, id: number): Promise<PgTable> {
  assertTableId(id);
  const [table] = await readTables(run, { ids: [id], include_system_schemas: true });
  if (!table) throw notFound(DdlMessages.tableNotFound(id));
  return table;
}

/** A table id that cannot be an oid names no table. */
export function assertTableId(id: number): void {
  if (id > MAX_OID) throw notFound(DdlMessages.tableNotFound(id));
}

/** Schema and name of an ordinary or partitioned table; 404 when there is none. */
export async function readTableName(tx: DdlTransaction, id: number): Promise<QualifiedName> {
  assertTableId(id);
  const [table] = await tx.query<QualifiedName>(tableNameQuery(id));
  if (!table) throw notFound(DdlMessages.tableNotFound(id));
  return table;
}

export async function tableRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, tableEditorRoutes.listTables, async ({ params, query }) => readTables(poolRunner(ctx.pools, params.ref), query));

  addRoute(app, tableEditorRoutes.getTable, async ({ params }) => readTable(poolRunner(ctx.pools, params.ref), params.id));

  addRoute(app, tableEditorRoutes.tableDefinition, async ({ params }) => {
    assertTableId(params.id);
    const [relation] = await projectQuery<RelationDefinition>(ctx.pools, params.ref, relationDefinitionQuery(params.id));
    if (!relation) throw notFound(DdlMessages.tableNotFound(params.id));
    return { sql: relationDefinitionSql(relation) };
  });

  addRoute(app, tableEditorRoutes.createTable, async ({ params, body }) => {
    // Built before connecting: a payload the builders refuse never opens a transaction.
    const statements = createTableStatements(body);
    return withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      await tx.run(statements);
      const table = createdTable(body);
      const [created] = await tx.query<{ id: number }>(tableIdQuery(table.schema, table.name));
      return readTable(tx.query, created!.id);
    });
  });

  addRoute(app, tableEditorRoutes.updateTable, async ({ params, body }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const name = await readTableName(tx, params.id);
      const primaryKey =
        body.primary_keys !== undefined ? ((await tx.query<{ primary_key: PrimaryKey | null }>(primaryKeyQuery(params.id)))[0]?.primary_key ?? null) : null;
      await tx.run(updateTableStatements(name, body, primaryKey));
      return readTable(tx.query, params.id);
    }),
  );

  addRoute(app, tableEditorRoutes.deleteTable, async ({ params, query }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const name = await readTableName(tx, params.id);
      const table = await readTable(tx.query, params.id);
      await tx.run([dropTableSql(name, query.cascade === true)]);
      return table;
    }),
  );
}
