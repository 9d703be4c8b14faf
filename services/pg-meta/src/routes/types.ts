import type { FastifyInstance } from 'fastify';
import { databaseRoutes, type PgType } from '@dash/contracts';
import { addRoute, notFound, projectQuery } from '@dash/service-kit';
import { withDdlTransaction, type DdlTransaction } from '../db/ddl';
import { enumTypeNameQuery, listTypesQuery, typeIdQuery } from '../sql/catalog/types';
import type { QualifiedName } from '../sql/ddl/names';
import { createEnumStatements, dropTypeStatement, updateEnumStatements } from '../sql/ddl/enums';
import type { PgMetaContext } from '../app';

export const enumNotFound = (id: number) => `Enumerated type with id ${id} not found`;

async function readType(tx: DdlTransaction, id: number): Promise<PgType> {
  const [type] = await tx.query<PgType>(listTypesQuery({ id }));
  if (!type) throw notFound(enumNotFound(id));
  return type;
}

async function enumName(tx: DdlTransaction, id: number): Promise<QualifiedName> {
  const [type] = await tx.query<QualifiedName>(enumTypeNameQuery(id));
  if (!type) throw notFound(enumNotFound(id));
  return type;
}

/** The list is postgres-meta's; the writes (enumerated types only) are ours. */
export async function typeRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, databaseRoutes.listTypes, async ({ params, query }) => projectQuery<PgType>(ctx.pools, params.ref, listTypesQuery(query)));

  addRoute(app, databaseRoutes.createType, async ({ params, body }) => {
    const statements = createEnumStatements(body);
    return withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      await tx.run(statements);
      const [created] = await tx.query<{ id: number }>(typeIdQuery(body.schema, body.name));
      return readType(tx, created!.id);
    });
  });

  // A renamed type keeps its oid.
  addRoute(app, databaseRoutes.updateType, async ({ params, body }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      await tx.run(updateEnumStatements(await enumName(tx, params.id), body));
      return readType(tx, params.id);
    }),
  );

  addRoute(app, databaseRoutes.deleteType, async ({ params, query }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const name = await enumName(tx, params.id);
      const type = await readType(tx, params.id);
      await tx.run([dropTypeStatement(name, query.cascade === true)]);
      return type;
    }),
  );
}
