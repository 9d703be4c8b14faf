import type { FastifyInstance } from 'fastify';
import { databaseRoutes, type PgIndex } from '@dash/contracts';
import { addRoute, notFound, projectQuery } from '@dash/service-kit';
import { withDdlTransaction, type DdlTransaction } from '../db/ddl';
import { indexIdQuery, indexNameQuery, listIndexesQuery } from '../sql/catalog/indexes';
import { relationNameQuery } from '../sql/catalog/relation-name';
import type { QualifiedName } from '../sql/ddl/names';
import { createIndexStatement, dropIndexStatement } from '../sql/ddl/indexes';
import type { PgMetaContext } from '../app';

export const indexNotFound = (id: number) => `Index with id ${id} not found`;
export const indexTableNotFound = (id: number) => `Table with id ${id} not found`;

/** Tables, partitioned tables and materialized views take indexes. */
const INDEX_RELKINDS = ['r', 'p', 'm'];

async function readIndex(tx: DdlTransaction, id: number): Promise<PgIndex> {
  const [index] = await tx.query<PgIndex>(listIndexesQuery({ id }));
  if (!index) throw notFound(indexNotFound(id));
  return index;
}

export async function indexRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, databaseRoutes.listIndexes, async ({ params, query }) => projectQuery<PgIndex>(ctx.pools, params.ref, listIndexesQuery(query)));

  addRoute(app, databaseRoutes.getIndex, async ({ params }) => {
    const [index] = await projectQuery<PgIndex>(ctx.pools, params.ref, listIndexesQuery({ id: params.id }));
    if (!index) throw notFound(indexNotFound(params.id));
    return index;
  });

  addRoute(app, databaseRoutes.createIndex, async ({ params, body }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const [table] = await tx.query<QualifiedName>(relationNameQuery(body.table_id, INDEX_RELKINDS));
      if (!table) throw notFound(indexTableNotFound(body.table_id));
      await tx.run([createIndexStatement(table, body)]);
      // An index lives in its table's schema.
      const [created] = await tx.query<{ id: number }>(indexIdQuery(table.schema, body.name));
      return readIndex(tx, created!.id);
    }),
  );

  addRoute(app, databaseRoutes.deleteIndex, async ({ params }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const [name] = await tx.query<QualifiedName>(indexNameQuery(params.id));
      if (!name) throw notFound(indexNotFound(params.id));
      const index = await readIndex(tx, params.id);
      await tx.run([dropIndexStatement(name)]);
      return index;
    }),
  );
}
