import type { FastifyInstance } from 'fastify';
import { API_DOCS_DEFAULT_SCHEMA, ApiDocsMessages, apiDocsRoutes, type ApiDocsFunction, type ApiDocsTable } from '@dash/contracts';
import { addRoute, notFound, projectDbError, projectQuery, projectTransaction, type SqlQuery } from '@dash/service-kit';
import type pg from 'pg';
import { apiDocsFunctionsQuery, apiDocsTablesQuery, schemaExistsQuery } from '../sql/api-docs';
import { parseSchemaList } from '../sql/filters';
import { typescriptCatalogQuery } from '../sql/generators';
import { renderTypescript, type TypescriptCatalog } from '../generators/typescript';
import type { PgMetaContext } from '../app';

/*
 * API docs and `/generators/typescript`: catalog reads, each one snapshot (a transaction, or one query).
 */

const rows = async <T extends pg.QueryResultRow>(client: pg.PoolClient, query: SqlQuery) => (await client.query<T>(query.text, query.values)).rows;

async function requireSchemas(client: pg.PoolClient, schemas: readonly string[]): Promise<void> {
  for (const schema of schemas) {
    const [row] = await rows<{ exists: boolean }>(client, schemaExistsQuery(schema));
    if (!row!.exists) throw notFound(ApiDocsMessages.schemaNotFound(schema));
  }
}

export async function apiDocsRoutesPlugin(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, apiDocsRoutes.apiDocs, async ({ params, query }) => {
    const schema = query.schema ?? API_DOCS_DEFAULT_SCHEMA;
    return projectTransaction(ctx.pools, params.ref, null, async (client) => {
      await requireSchemas(client, [schema]);
      const tables = await rows<ApiDocsTable>(client, apiDocsTablesQuery(schema));
      const functions = await rows<ApiDocsFunction>(client, apiDocsFunctionsQuery(schema));
      return { schema, tables, functions };
    }).catch((e: unknown) => Promise.reject(projectDbError(e)));
  });

  addRoute(app, apiDocsRoutes.generateTypescript, async ({ params, query }) => {
    const schemas = { include: parseSchemaList(query.included_schemas), exclude: parseSchemaList(query.excluded_schemas) };
    const [row] = await projectQuery<{ catalog: TypescriptCatalog }>(ctx.pools, params.ref, typescriptCatalogQuery(schemas));
    const types = renderTypescript(row!.catalog, {
      detectOneToOneRelationships: query.detect_one_to_one_relationships === true,
      postgrestVersion: query.postgrest_version,
    });
    return { types };
  });
}
