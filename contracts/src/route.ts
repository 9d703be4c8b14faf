import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { AccessRule } from './permissions';
import type { FeatureFlag } from './registry';

export type ServiceName = 'platform' | 'pg-meta' | 'storage' | 'logs' | 'rest' | 'graphql' | 'auth' | 'mail';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * One HTTP route, described once and used at both ends: the service registers it (Fastify validates
 * params, query, body and reply with these schemas and checks `access`), and the frontend builds its
 * request from `url` and types it from the same schemas.
 */
export interface RouteDef<
  P extends TSchema = TSchema,
  Q extends TSchema = TSchema,
  B extends TSchema = TSchema,
  R extends TSchema = TSchema,
> {
  service: ServiceName;
  method: HttpMethod;
  /** Path inside the service, Fastify style (`/:ref/tables`). The gateway serves it under `/api/<service>`. */
  url: string;
  params?: P;
  querystring?: Q;
  body?: B;
  response: R;
  /** Status of a successful reply. */
  status?: 200 | 201;
  access: AccessRule;
  /**
   * The feature flag the route belongs to: while the flag is off for the organization of the route's
   * project (`:ref`), the service refuses the route (403) once access is granted, whatever the browser
   * shows or hides.
   */
  featureFlag?: FeatureFlag;
}

export function defineRoute<P extends TSchema, Q extends TSchema, B extends TSchema, R extends TSchema>(
  def: RouteDef<P, Q, B, R>,
): RouteDef<P, Q, B, R> {
  return def;
}

/** The static types of a route's parts, for handlers and RTK Query endpoints alike. */
export type RouteParams<D> = D extends RouteDef<infer P, TSchema, TSchema, TSchema> ? Static<P> : never;
export type RouteQuery<D> = D extends RouteDef<TSchema, infer Q, TSchema, TSchema> ? Static<Q> : never;
export type RouteBody<D> = D extends RouteDef<TSchema, TSchema, infer B, TSchema> ? Static<B> : never;
export type RouteReply<D> = D extends RouteDef<TSchema, TSchema, TSchema, infer R> ? Static<R> : never;

/** Fills `:name` segments of a route's url; every value is URI-encoded. */
export function fillPath(url: string, params: Record<string, string | number> = {}): string {
  return url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`Missing path parameter "${name}" for ${url}`);
    return encodeURIComponent(String(value));
  });
}

/** The path the browser calls through the gateway. */
export function gatewayPath(def: Pick<RouteDef, 'service' | 'url'>, params?: Record<string, string | number>): string {
  return `/api/${def.service}${fillPath(def.url, params)}`;
}

export const ErrorReply = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    message: Type.String(),
    code: Type.Optional(Type.String()),
    /** A statement error's Postgres detail and hint, and its 1-based character position in the text sent. */
    detail: Type.Optional(Type.String()),
    hint: Type.Optional(Type.String()),
    position: Type.Optional(Type.Integer({ minimum: 1 })),
    /**
     * A 409's current state of what the request was based on (code ROW_CHANGED: the row as it is now,
     * long cells cut as a page of rows cuts them and named in `truncated`, JSON nulls named in
     * `jsonNulls` as a page has them). Declared here because every route's error replies are
     * serialised with this schema, which drops undeclared fields.
     */
    current: Type.Optional(
      Type.Object({
        row: Type.Record(Type.String(), Type.Unknown()),
        truncated: Type.Array(Type.String()),
        jsonNulls: Type.Optional(Type.Array(Type.String())),
      }),
    ),
  },
  { $id: 'ErrorReply' },
);

/** SQLSTATE of a column that does not exist: Postgres's, and the rows routes' for a sort or filter on one. */
export const UNDEFINED_COLUMN = '42703';
/**
 * A row update whose `expected` values no longer match the row: someone changed it since it was read.
 * The 409 carries the current row in `current` and nothing was written.
 */
export const ROW_CHANGED = 'row_changed';

/** The `code` of a failed call's error reply (`{ data: ErrorReply }` as RTK Query holds it), if it has one. */
export function errorReplyCode(error: unknown): string | undefined {
  const data = (error as { data?: unknown } | null | undefined)?.data;
  const code = data && typeof data === 'object' ? (data as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}
export type ErrorReply = Static<typeof ErrorReply>;

/** The current state a failed call's 409 carries (`{ data: ErrorReply }` as RTK Query holds it), if any. */
export function errorReplyCurrent(error: unknown): ErrorReply['current'] {
  const data = (error as { data?: unknown } | null | undefined)?.data;
  const current = data && typeof data === 'object' ? (data as { current?: unknown }).current : undefined;
  if (!current || typeof current !== 'object') return undefined;
  const { row, truncated, jsonNulls } = current as { row?: unknown; truncated?: unknown; jsonNulls?: unknown };
  if (!row || typeof row !== 'object' || Array.isArray(row)) return undefined;
  const names = (list: unknown) => (Array.isArray(list) ? list.filter((t): t is string => typeof t === 'string') : []);
  return { row: row as Record<string, unknown>, truncated: names(truncated), ...(Array.isArray(jsonNulls) ? { jsonNulls: names(jsonNulls) } : {}) };
}

export const RefParams = Type.Object({ ref: Type.String({ pattern: '^[a-z0-9-]{1,64}$' }) });
/** Catalog ids are oids. */
export const OidParams = Type.Object({ ref: RefParams.properties.ref, id: Type.Integer({ minimum: 1, maximum: 4_294_967_295 }) });
export const Ok = Type.Object({ ok: Type.Literal(true) });
export const Timestamp = Type.String({ format: 'date-time' });
