import type { FastifyInstance } from 'fastify';
import { Messages, pgMetaRoutes, policiesRoutes, type PgSchema } from '@dash/contracts';
import { addRoute, notFound, projectQuery } from '@dash/service-kit';
import { withDdlTransaction, type DdlTransaction } from '../db/ddl';
import { createSchemaStatement, dropSchemaStatement, findSchemaQuery, listSchemasQuery, updateSchemaStatements } from '../sql/schemas';
import type { PgMetaContext } from '../app';

async function schemaById(tx: DdlTransaction, id: number): Promise<PgSchema> {
  const [schema] = await tx.query<PgSchema>(findSchemaQuery({ id }));
  if (!schema) throw notFound(Messages.schemaNotFound(id));
  return schema;
}

export async function schemaRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, pgMetaRoutes.listSchemas, async ({ params, query }) =>
    projectQuery<PgSchema>(ctx.pools, params.ref, listSchemasQuery({ includeSystemSchemas: query.include_system_schemas, limit: query.limit, offset: query.offset })),
  );

  addRoute(app, pgMetaRoutes.getSchema, async ({ params }) => {
    const [schema] = await projectQuery<PgSchema>(ctx.pools, params.ref, findSchemaQuery({ id: params.id }));
    if (!schema) throw notFound(Messages.schemaNotFound(params.id));
    return schema;
  });

  addRoute(app, policiesRoutes.createSchema, async ({ params, body }) => {
    const statement = createSchemaStatement(body);
    return withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      await tx.run([statement]);
      const [schema] = await tx.query<PgSchema>(findSchemaQuery({ name: body.name }));
      return schema!;
    });
  });

  // A schema keeps its oid when renamed, so it is read back by id.
  addRoute(app, policiesRoutes.updateSchema, async ({ params, body }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const current = await schemaById(tx, params.id);
      await tx.run(updateSchemaStatements(current.name, body));
      return schemaById(tx, params.id);
    }),
  );

  addRoute(app, policiesRoutes.deleteSchema, async ({ params, query }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const schema = await schemaById(tx, params.id);
      await tx.run([dropSchemaStatement(schema.name, query.cascade === true)]);
      return schema;
    }),
  );
}
