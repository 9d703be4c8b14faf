import type { FastifyInstance } from 'fastify';
import { databaseRoutes, type PgFunction } from '@dash/contracts';
import { addRoute, notFound, projectQuery } from '@dash/service-kit';
import { sendJsonList, wholeList } from '../db/catalog';
import { withDdlTransaction, type DdlTransaction } from '../db/ddl';
import { functionBySignatureQuery, functionNameQuery, listFunctionsQuery } from '../sql/catalog/functions';
import {
  createFunctionStatement,
  dropFunctionStatement,
  functionSignature,
  moveFunctionStatement,
  renameFunctionStatement,
} from '../sql/ddl/functions';
import type { PgMetaContext } from '../app';

export const functionNotFound = (id: number) => `Function with id ${id} not found`;

async function readFunction(tx: DdlTransaction, id: number): Promise<PgFunction> {
  const [fn] = await tx.query<PgFunction>(listFunctionsQuery({ id }));
  if (!fn) throw notFound(functionNotFound(id));
  return fn;
}

/** Schema, name and Postgres's own signature text of a plain function; 404 when there is none. */
async function functionName(tx: DdlTransaction, id: number) {
  const [fn] = await tx.query<{ schema: string; name: string; signature: string }>(functionNameQuery(id));
  if (!fn) throw notFound(functionNotFound(id));
  return fn;
}

async function functionId(tx: DdlTransaction, signature: string): Promise<number | null> {
  const [row] = await tx.query<{ id: number | null }>(functionBySignatureQuery(signature));
  return row?.id ?? null;
}

export async function functionRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, databaseRoutes.listFunctions, async ({ params, query, reply }) => sendJsonList<PgFunction>(reply, ctx.pools, params.ref, listFunctionsQuery(query), wholeList(query)));

  addRoute(app, databaseRoutes.getFunction, async ({ params }) => {
    const [fn] = await projectQuery<PgFunction>(ctx.pools, params.ref, listFunctionsQuery({ id: params.id }));
    if (!fn) throw notFound(functionNotFound(params.id));
    return fn;
  });

  addRoute(app, databaseRoutes.createFunction, async ({ params, body }) => {
    const statement = createFunctionStatement(body);
    const signature = functionSignature(body);
    return withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      await tx.run([statement]);
      return readFunction(tx, (await functionId(tx, signature))!);
    });
  });

  /*
   * The function keeps its oid (and what depends on it) where it can: it is moved and renamed first,
   * then replaced. With other argument types the replacement is a new function, and the old one is
   * dropped (Postgres refuses while something depends on it; the transaction then changes nothing).
   */
  addRoute(app, databaseRoutes.updateFunction, async ({ params, body }) => {
    const statement = createFunctionStatement(body, true);
    const signature = functionSignature(body);
    return withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      let current = await functionName(tx, params.id);
      if (current.schema !== body.schema) {
        await tx.run([moveFunctionStatement(current.signature, body.schema)]);
        current = await functionName(tx, params.id);
      }
      if (current.name !== body.name) {
        await tx.run([renameFunctionStatement(current.signature, body.name)]);
        current = await functionName(tx, params.id);
      }
      await tx.run([statement]);
      const id = (await functionId(tx, signature))!;
      if (id !== params.id) await tx.run([dropFunctionStatement(current.signature, false)]);
      return readFunction(tx, id);
    });
  });

  addRoute(app, databaseRoutes.deleteFunction, async ({ params, query }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const fn = await readFunction(tx, params.id);
      await tx.run([dropFunctionStatement((await functionName(tx, params.id)).signature, query.cascade === true)]);
      return fn;
    }),
  );
}
