import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams } from './route';
import { access } from './permissions';

/*
 * The project's data API, PostgREST 12's dialect (with 13's additions), as supabase-js and postgrest-js call it.
 * The rest service mounts it at `/:ref/v1`; the gateway serves that as `/p/:ref/rest/v1`. Apps call it with
 * one of the project's API keys or a user's JWT (`apikey`, `Authorization: Bearer`), verified with the project's
 * JWT secret; each request runs in one transaction as the token's database role, so grants and row-level
 * security decide. Query strings are PostgREST's grammar (`select=`, filters `col=op.value`, `order=`, ...),
 * read by the service; bodies and replies are the relation's rows, so their schemas are open here.
 */

const Name = Type.String({ minLength: 1, maxLength: 1024 });
export const RestRelationParams = Type.Object({ ref: RefParams.properties.ref, relation: Name });
export const RestFunctionParams = Type.Object({ ref: RefParams.properties.ref, function: Name });
/** Every query parameter as text, a repeated one as a list (`id=gt.1&id=lt.9`). */
export const RestQuery = Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]));
/** Rows, a single object, a function's value or CSV text: whatever the request asked for. */
export const RestReply = Type.Unknown();
/** A JSON body (one object or an array of them for writes; named arguments for functions). */
export const RestBody = Type.Unknown();

/** PostgREST's error body: its own `PGRST…` codes, or the SQLSTATE of a Postgres error with its detail and hint. */
export const PostgrestErrorBody = Type.Object({
  code: Type.String(),
  message: Type.String(),
  details: Type.Union([Type.String(), Type.Null()]),
  hint: Type.Union([Type.String(), Type.Null()]),
});
export type PostgrestErrorBody = Static<typeof PostgrestErrorBody>;

const relation = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', body: boolean) =>
  defineRoute({
    service: 'rest',
    method,
    url: '/:ref/v1/:relation',
    params: RestRelationParams,
    querystring: RestQuery,
    ...(body ? { body: RestBody } : {}),
    response: RestReply,
    access: access.projectKey,
  });

export const restRoutes = {
  /** The OpenAPI (Swagger 2.0) document of the request's schema. */
  openApi: defineRoute({ service: 'rest', method: 'GET', url: '/:ref/v1/', params: RefParams, response: RestReply, access: access.projectKey }),
  readRows: relation('GET', false),
  insertRows: relation('POST', true),
  updateRows: relation('PATCH', true),
  upsertRow: relation('PUT', true),
  deleteRows: relation('DELETE', false),
  callFunction: defineRoute({
    service: 'rest', method: 'POST', url: '/:ref/v1/rpc/:function', params: RestFunctionParams, querystring: RestQuery, body: RestBody, response: RestReply, access: access.projectKey,
  }),
  callFunctionByGet: defineRoute({
    service: 'rest', method: 'GET', url: '/:ref/v1/rpc/:function', params: RestFunctionParams, querystring: RestQuery, response: RestReply, access: access.projectKey,
  }),
};
