/**
 * Endpoints from contract routes (`routeQuery`, `routeMutation`, `routeRequest`), bundled into each app
 * that imports them (this subpath is not shared): pure functions over RTK Query's builder, so a remote that
 * uses a newer helper still runs in an older shell. Naming and tag rules: `src/routes.ts`.
 */
export { routeRequest, routeQuery, routeMutation, routeParts, type RouteArg, type RouteParts, type ApiBuilder } from './src/routes';
