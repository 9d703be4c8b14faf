import type { FastifyInstance } from 'fastify';
import { databaseRoutes, type PgPublication } from '@dash/contracts';
import { addRoute, notFound, projectQuery } from '@dash/service-kit';
import { withDdlTransaction, type DdlTransaction } from '../db/ddl';
import { listPublicationsQuery, publicationIdQuery } from '../sql/catalog/publications';
import { createPublicationStatement, dropPublicationStatement, updatePublicationStatements } from '../sql/ddl/publications';
import type { PgMetaContext } from '../app';

export const publicationNotFound = (id: number) => `Publication with id ${id} not found`;

async function readPublication(tx: DdlTransaction, id: number): Promise<PgPublication> {
  const [publication] = await tx.query<PgPublication>(listPublicationsQuery(id));
  if (!publication) throw notFound(publicationNotFound(id));
  return publication;
}

export async function publicationRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, databaseRoutes.listPublications, async ({ params, query }) =>
    projectQuery<PgPublication>(ctx.pools, params.ref, listPublicationsQuery(undefined, query)),
  );

  addRoute(app, databaseRoutes.getPublication, async ({ params }) => {
    const [publication] = await projectQuery<PgPublication>(ctx.pools, params.ref, listPublicationsQuery(params.id));
    if (!publication) throw notFound(publicationNotFound(params.id));
    return publication;
  });

  addRoute(app, databaseRoutes.createPublication, async ({ params, body }) => {
    const statement = createPublicationStatement(body);
    return withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      await tx.run([statement]);
      const [created] = await tx.query<{ id: number }>(publicationIdQuery(body.name));
      return readPublication(tx, created!.id);
    });
  });

  addRoute(app, databaseRoutes.updatePublication, async ({ params, body }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const current = await readPublication(tx, params.id);
      await tx.run(
        updatePublicationStatements(
          {
            name: current.name,
            flags: current,
            tables: (current.tables ?? []).map((table) => ({ schema: table.schema, name: table.name })),
          },
          body,
        ),
      );
      return readPublication(tx, params.id);
    }),
  );

  addRoute(app, databaseRoutes.deletePublication, async ({ params }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const publication = await readPublication(tx, params.id);
      await tx.run([dropPublicationStatement(publication.name)]);
      return publication;
    }),
  );
}
