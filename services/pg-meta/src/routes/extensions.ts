import type { FastifyInstance } from 'fastify';
import { databaseRoutes, type ExtensionDependent, type PgExtension } from '@dash/contracts';
import { addRoute, badRequest, notFound, projectQuery } from '@dash/service-kit';
import { withDdlTransaction, type DdlTransaction } from '../db/ddl';
import { extensionDependentsQuery, listExtensionsQuery } from '../sql/catalog/extensions';
import { createExtensionStatement, dropExtensionStatement } from '../sql/ddl/extensions';
import type { PgMetaContext } from '../app';

export const extensionNotAvailable = (name: string) => `Extension "${name}" is not available on this server`;
export const extensionNotInstalled = (name: string) => `Extension "${name}" is not installed`;

async function readExtension(tx: DdlTransaction, name: string): Promise<PgExtension> {
  const [extension] = await tx.query<PgExtension>(listExtensionsQuery(name));
  if (!extension) throw notFound(extensionNotAvailable(name));
  return extension;
}

export async function extensionRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, databaseRoutes.listExtensions, async ({ params, query }) =>
    projectQuery<PgExtension>(ctx.pools, params.ref, listExtensionsQuery(undefined, query)),
  );

  addRoute(app, databaseRoutes.getExtension, async ({ params }) => {
    const [extension] = await projectQuery<PgExtension>(ctx.pools, params.ref, listExtensionsQuery(params.name));
    if (!extension) throw notFound(extensionNotAvailable(params.name));
    return extension;
  });

  addRoute(app, databaseRoutes.extensionDependents, async ({ params }) => {
    const [extension] = await projectQuery<PgExtension>(ctx.pools, params.ref, listExtensionsQuery(params.name));
    if (!extension?.installed_version) throw notFound(extensionNotInstalled(params.name));
    return projectQuery<ExtensionDependent>(ctx.pools, params.ref, extensionDependentsQuery(params.name));
  });

  addRoute(app, databaseRoutes.createExtension, async ({ params, body }) => {
    const statement = createExtensionStatement(body);
    return withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const extension = await readExtension(tx, body.name);
      if (extension.installed_version) throw badRequest(`Extension "${body.name}" is already installed`);
      await tx.run([statement]);
      return readExtension(tx, body.name);
    });
  });

  /** Replies with the extension as it was (installed). */
  addRoute(app, databaseRoutes.deleteExtension, async ({ params, query }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const [extension] = await tx.query<PgExtension>(listExtensionsQuery(params.name));
      if (!extension?.installed_version) throw notFound(extensionNotInstalled(params.name));
      await tx.run([dropExtensionStatement(params.name, query.cascade === true)]);
      return extension;
    }),
  );
}
