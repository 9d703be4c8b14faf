import type { BaseQueryFn, EndpointBuilder, FetchArgs, FetchBaseQueryError, MutationDefinition, QueryDefinition } from '@reduxjs/toolkit/query/react';
import { gatewayPath, type RouteBody, type RouteDef, type RouteParams, type RouteQuery, type RouteReply } from '@dash/contracts';

/** The base query of the page's one API (`baseApi`). */
export type ApiBaseQuery = BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError>;
/** What `injectEndpoints` hands the endpoints function, whatever tag types the area added. */
export type ApiBuilder<TagTypes extends string> = EndpointBuilder<ApiBaseQuery, TagTypes, 'api'>;

type PathParams = Record<string, string | number>;

/**
 * Builds the request of a contract route: the url through the gateway, the method, the query string and
 * the body. Endpoint files call this (or `routeQuery` / `routeMutation`); components never build URLs.
 */
export function routeRequest(
  def: RouteDef,
  parts: { params?: PathParams; query?: Record<string, unknown>; body?: unknown } = {},
): FetchArgs {
  const query = parts.query
    ? Object.fromEntries(Object.entries(parts.query).filter(([, v]) => v !== undefined && v !== ''))
    : undefined;
  return {
    url: gatewayPath(def, parts.params),
    method: def.method,
    ...(query && Object.keys(query).length ? { params: query } : {}),
    ...(parts.body !== undefined ? { body: parts.body } : {}),
  };
}

/** A part the route does not declare is `unknown` (TypeBox's TSchema): it adds nothing to the argument. */
type Declared<T> = unknown extends T ? object : T;

/**
 * The argument of an endpoint made from a route: its path params, query and body fields side by side
 * (`{ ref, id, name }`). Nothing to pass: `void`; only optional fields: the hook may be called without one.
 * A route whose body is not an object (a list) has no such argument: map it with `parts`.
 */
export type RouteArg<D> =
  RouteBody<D> extends readonly unknown[]
    ? never
    : Declared<RouteParams<D>> & Declared<RouteQuery<D>> & Declared<RouteBody<D>> extends infer A
      ? keyof A extends never
        ? void
        : object extends A
          ? A | void
          : A
      : never;

/** The request parts of a route, typed by its schemas, for endpoints whose argument is shaped otherwise. */
export interface RouteParts<D> {
  params?: Declared<RouteParams<D>>;
  query?: Declared<RouteQuery<D>>;
  body?: RouteBody<D>;
}

function propertyNames(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties ? Object.keys(properties) : [];
}

/**
 * Splits a `RouteArg` by the route's schemas: the params' and the query's properties go to the path and
 * the query string, every other field to the body (when the route has one).
 */
export function routeParts(def: RouteDef, arg: unknown): { params?: PathParams; query?: Record<string, unknown>; body?: unknown } {
  const rest: Record<string, unknown> = { ...((arg ?? {}) as Record<string, unknown>) };
  const take = (schema: unknown) => {
    const names = propertyNames(schema).filter((name) => name in rest);
    if (!names.length) return undefined;
    const taken = Object.fromEntries(names.map((name) => [name, rest[name]]));
    for (const name of names) delete rest[name];
    return taken;
  };
  const params = take(def.params) as PathParams | undefined;
  const query = take(def.querystring);
  return { params, query, ...(def.body ? { body: rest } : {}) };
}

type RouteQueryDefinition<D, T extends string, Arg, Result> = QueryDefinition<Arg, ApiBaseQuery, T, Result, 'api', RouteReply<D>>;
type RouteMutationDefinition<D, T extends string, Arg, Result> = MutationDefinition<Arg, ApiBaseQuery, T, Result, 'api', RouteReply<D>>;

/** What an endpoint made from a route may still say: how its argument maps to the request, and what it does with the reply. */
interface RouteEndpointOptions<D, Arg, Result> {
  /** Builds the request parts from an argument shaped otherwise than `RouteArg` (it sets the argument's type). */
  parts?: (arg: Arg) => RouteParts<D>;
  /** Keeps part of the reply (it sets the endpoint's result type). */
  transformResponse?: (reply: RouteReply<D>, meta: unknown, arg: Arg) => Result;
}

// Only `parts` and `transformResponse` set the argument and the result: tags and lifecycle callbacks use them.
export type RouteQueryOptions<D, T extends string, Arg, Result> = RouteEndpointOptions<D, Arg, Result> &
  Pick<RouteQueryDefinition<D, T, NoInfer<Arg>, NoInfer<Result>>, 'providesTags' | 'keepUnusedDataFor' | 'onQueryStarted' | 'onCacheEntryAdded'>;

export type RouteMutationOptions<D, T extends string, Arg, Result> = RouteEndpointOptions<D, Arg, Result> &
  Pick<RouteMutationDefinition<D, T, NoInfer<Arg>, NoInfer<Result>>, 'invalidatesTags' | 'onQueryStarted'>;

const requestOf =
  <D extends RouteDef, Arg>(route: D, parts?: (arg: Arg) => RouteParts<D>) =>
  (arg: Arg): FetchArgs =>
    routeRequest(route, (parts ? parts(arg) : routeParts(route, arg)) as Parameters<typeof routeRequest>[1]);

/*
 * Endpoints from contract routes, one line each:
 *
 *   projectPermissions: routeQuery(build, platformRoutes.projectPermissions, { providesTags: ... }),
 *
 * The argument is `RouteArg` (or what `parts` takes), the result the route's reply (or what
 * `transformResponse` returns). Streams, uploads and downloads, and infinite queries stay plain
 * `build.*` endpoints or fetch calls.
 *
 * Naming: remotes are built and deployed apart, so two of them must never define the same endpoint
 * name — each injection passes `overrideExisting: 'throw'` and the second definition fails on load. An
 * endpoint is named after its route (`listSnippets` for contentRoutes.listSnippets). The area whose
 * contract group holds the route keeps that name; another area calling the same route puts its own
 * word first (the policies' `rls`, `storage`, the table editor's `editor`, `apiDocs`, the logs'
 * `report`): `rlsTables` and `editorTables` for one route.
 */

// The result types are NoInfer: `injectEndpoints` gives the call a contextual type of `any` endpoints,
// which would otherwise become the argument and the result.

/** A query endpoint of a contract route. */
export function routeQuery<D extends RouteDef, T extends string, Arg = RouteArg<D>, Result = RouteReply<D>>(
  build: ApiBuilder<T>,
  route: D,
  options: RouteQueryOptions<D, T, Arg, Result> = {},
): NoInfer<RouteQueryDefinition<D, T, Arg, Result>> {
  const { parts, ...rest } = options;
  return build.query<Result, Arg, RouteReply<D>>({ query: requestOf(route, parts), ...rest } as Parameters<typeof build.query<Result, Arg, RouteReply<D>>>[0]);
}

/** A mutation endpoint of a contract route. */
export function routeMutation<D extends RouteDef, T extends string, Arg = RouteArg<D>, Result = RouteReply<D>>(
  build: ApiBuilder<T>,
  route: D,
  options: RouteMutationOptions<D, T, Arg, Result> = {},
): NoInfer<RouteMutationDefinition<D, T, Arg, Result>> {
  const { parts, ...rest } = options;
  return build.mutation<Result, Arg, RouteReply<D>>({ query: requestOf(route, parts), ...rest } as Parameters<typeof build.mutation<Result, Arg, RouteReply<D>>>[0]);
}
