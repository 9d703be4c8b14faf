import type { Column, Relation, Routine, SchemaCache } from '../schema/types';

/** What the document says about where it is served. */
export interface DocumentOrigin {
  /** `127.0.0.1:8080` */
  host: string;
  /** `/p/<ref>/rest/v1` */
  basePath: string;
  scheme: 'http' | 'https';
}

type SchemaObject = Record<string, unknown>;

/** JSON types of Postgres types; `format` keeps the Postgres type's name, as PostgREST's document does. */
export function columnSchema(column: Pick<Column, 'type' | 'elementType' | 'enumValues' | 'maxLength' | 'description'>): SchemaObject {
  const schema: SchemaObject = column.elementType !== null
    ? { type: 'array', format: column.type, items: { type: jsonType(column.elementType) } }
    : { type: jsonType(column.type), format: column.type };
  if (jsonType(column.type) === 'any') delete schema.type;
  if (column.enumValues) schema.enum = column.enumValues;
  if (column.maxLength !== null) schema.maxLength = column.maxLength;
  if (column.description) schema.description = column.description;
  return schema;
}

function jsonType(type: string): string {
  const base = type.replace(/\(.*\)$/, '').replace(/^.*\./, '');
  if (['smallint', 'integer', 'bigint', 'int2', 'int4', 'int8'].includes(base)) return 'integer';
  if (['numeric', 'real', 'double precision', 'float4', 'float8', 'money'].includes(base)) return 'number';
  if (base === 'boolean' || base === 'bool') return 'boolean';
  if (base === 'json' || base === 'jsonb') return 'any';
  return 'string';
}

const ROW_FILTER = (relation: string, column: string) => `rowFilter.${relation}.${column}`;
const ref = (kind: 'parameters' | 'definitions', name: string) => ({ $ref: `#/${kind}/${encodeURIComponent(name).replace(/%2E/g, '.')}` });

/** The common query parameters of every relation, as PostgREST's document lists them. */
const COMMON_PARAMETERS: Record<string, SchemaObject> = {
  select: { name: 'select', description: 'Filtering Columns', required: false, in: 'query', type: 'string' },
  on_conflict: { name: 'on_conflict', description: 'On Conflict', required: false, in: 'query', type: 'string' },
  order: { name: 'order', description: 'Ordering', required: false, in: 'query', type: 'string' },
  range: { name: 'Range', description: 'Limiting and Pagination', required: false, in: 'header', type: 'string' },
  rangeUnit: { name: 'Range-Unit', description: 'Limiting and Pagination', required: false, default: 'items', in: 'header', type: 'string' },
  offset: { name: 'offset', description: 'Limiting and Pagination', required: false, in: 'query', type: 'string' },
  limit: { name: 'limit', description: 'Limiting and Pagination', required: false, in: 'query', type: 'string' },
  preferParams: { name: 'Prefer', description: 'Preference', required: false, enum: ['params=single-object'], in: 'header', type: 'string' },
  preferReturn: { name: 'Prefer', description: 'Preference', required: false, enum: ['return=representation', 'return=minimal', 'return=none'], in: 'header', type: 'string' },
  preferCount: { name: 'Prefer', description: 'Preference', required: false, enum: ['count=none'], in: 'header', type: 'string' },
  preferPost: {
    name: 'Prefer', description: 'Preference', required: false, in: 'header', type: 'string',
    enum: ['return=representation', 'return=minimal', 'return=none', 'resolution=ignore-duplicates', 'resolution=merge-duplicates'],
  },
};

function relationDefinition(relation: Relation): SchemaObject {
  const required = relation.columns.filter((c) => !c.nullable && c.default === null && c.identity === null && !c.generated).map((c) => c.name);
  const properties = Object.fromEntries(relation.columns.map((column) => {
    const schema = columnSchema(column);
    if (relation.primaryKey.includes(column.name)) schema.description = `${column.description ? `${column.description}\n\n` : ''}Note:\nThis is a Primary Key.<pk/>`;
    if (column.default !== null) schema.default = column.default;
    return [column.name, schema];
  }));
  return { type: 'object', ...(required.length ? { required } : {}), properties, ...(relation.description ? { description: relation.description } : {}) };
}

function relationPath(relation: Relation): SchemaObject {
  const filters = relation.columns.map((c) => ref('parameters', ROW_FILTER(relation.name, c.name)));
  const body = { name: relation.name, in: 'body', required: false, schema: ref('definitions', relation.name) };
  const tags = [relation.name];
  const ok = { description: 'OK', schema: { type: 'array', items: ref('definitions', relation.name) } };
  const path: SchemaObject = {
    get: {
      tags, ...(relation.description ? { summary: relation.description } : {}),
      parameters: [...filters, ref('parameters', 'select'), ref('parameters', 'order'), ref('parameters', 'range'), ref('parameters', 'rangeUnit'), ref('parameters', 'offset'), ref('parameters', 'limit'), ref('parameters', 'preferCount')],
      responses: { 200: ok, 206: { description: 'Partial Content' } },
    },
  };
  if (relation.insertable) path.post = { tags, parameters: [body, ref('parameters', 'select'), ref('parameters', 'preferPost')], responses: { 201: { description: 'Created' } } };
  if (relation.updatable) path.patch = { tags, parameters: [...filters, body, ref('parameters', 'preferReturn')], responses: { 204: { description: 'No Content' } } };
  if (relation.deletable) path.delete = { tags, parameters: [...filters, ref('parameters', 'preferReturn')], responses: { 204: { description: 'No Content' } } };
  return path;
}

function routinePath(routine: Routine): SchemaObject {
  const properties = Object.fromEntries(routine.parameters.filter((p) => p.name).map((p) => [p.name, columnSchema({ type: p.type, elementType: p.type.endsWith('[]') ? p.type.slice(0, -2) : null, enumValues: null, maxLength: null, description: null })]));
  const required = routine.parameters.filter((p) => p.name && !p.hasDefault).map((p) => p.name);
  const tags = ['(rpc) ' + routine.name];
  const post = {
    tags, ...(routine.description ? { summary: routine.description } : {}),
    parameters: [
      { name: 'args', required: true, in: 'body', schema: { type: 'object', ...(required.length ? { required } : {}), properties } },
      ref('parameters', 'preferParams'),
    ],
    produces: ['application/json', 'application/vnd.pgrst.object+json'],
    responses: { 200: { description: 'OK' } },
  };
  const get = {
    tags,
    parameters: routine.parameters.filter((p) => p.name).map((p) => ({ name: p.name, required: !p.hasDefault, in: 'query', type: columnSchema({ type: p.type, elementType: null, enumValues: null, maxLength: null, description: null }).type ?? 'string', format: p.type })),
    responses: { 200: { description: 'OK' } },
  };
  return routine.volatility === 'volatile' ? { post } : { get, post };
}

/**
 * The data API's OpenAPI (Swagger 2.0) document for one exposed schema, as PostgREST serves at its root:
 * a path per table, view and function the schema cache holds, each relation's definition, and row filters
 * per column. Only what `schema` holds; privileges are not consulted (PostgREST's default).
 */
export function openApiDocument(cache: SchemaCache, schema: string, origin: DocumentOrigin): SchemaObject {
  const relations = [...cache.relations.values()].filter((r) => r.schema === schema).sort((a, b) => a.name.localeCompare(b.name));
  const routines = [...cache.routines.values()].flat().filter((r) => r.schema === schema).sort((a, b) => a.name.localeCompare(b.name));
  const paths: Record<string, SchemaObject> = {
    '/': { get: { tags: ['Introspection'], summary: 'OpenAPI description (this document)', produces: ['application/openapi+json', 'application/json'], responses: { 200: { description: 'OK' } } } },
  };
  for (const relation of relations) paths[`/${relation.name}`] = relationPath(relation);
  // One path per function name: overloads share it, the first one describes it.
  for (const routine of routines) paths[`/rpc/${routine.name}`] ??= routinePath(routine);
  const parameters: Record<string, SchemaObject> = { ...COMMON_PARAMETERS };
  for (const relation of relations) {
    for (const column of relation.columns) {
      parameters[ROW_FILTER(relation.name, column.name)] = { name: column.name, required: false, format: column.type, in: 'query', type: 'string' };
    }
  }
  return {
    swagger: '2.0',
    info: { title: 'Data API', description: `The project's data API over the "${schema}" schema, in PostgREST's dialect.`, version: '12.2.0' },
    host: origin.host,
    basePath: origin.basePath,
    schemes: [origin.scheme],
    consumes: ['application/json', 'application/vnd.pgrst.object+json;nulls=stripped', 'application/vnd.pgrst.object+json', 'text/csv'],
    produces: ['application/json', 'application/vnd.pgrst.object+json;nulls=stripped', 'application/vnd.pgrst.object+json', 'text/csv'],
    paths,
    definitions: Object.fromEntries(relations.map((r) => [r.name, relationDefinition(r)])),
    parameters,
    externalDocs: { description: 'PostgREST documentation', url: 'https://postgrest.org/en/v12/references/api.html' },
  };
}
