// @ts-check
// Kept apart from mf-preset.cjs so that ESLint reads the list without loading webpack.

/**
 * A shared module cannot be tree-shaken (its consumers are other builds), so the router the apps share is
 * React Router's browser API without its server runtime and framework mode (SSR rendering, cookies and
 * sessions, React Server Components, hydration of server-rendered routes, the test stub): about half of
 * the package, which a single-page dashboard never runs. Every other export, present or added by a later
 * release, is shared. An app that imported one of these names would get `undefined`, so ESLint refuses
 * such an import (eslint.config.mjs).
 */
const ROUTER_SERVER_AND_FRAMEWORK_EXPORTS = new Set([
  'ServerRouter',
  'StaticRouter',
  'StaticRouterProvider',
  'createStaticHandler',
  'createStaticRouter',
  'createRequestHandler',
  'createCookie',
  'createCookieSessionStorage',
  'createMemorySessionStorage',
  'createSession',
  'createSessionStorage',
  'isCookie',
  'isSession',
  'createRoutesStub',
  'unstable_RSCStaticRouter',
  'unstable_routeRSCServerRequest',
  'unstable_setDevServerHooks',
  'UNSAFE_RSCDefaultRootErrorBoundary',
  'UNSAFE_ServerMode',
  'UNSAFE_SingleFetchRedirectSymbol',
  'UNSAFE_decodeViaTurboStream',
  'UNSAFE_getTurboStreamSingleFetchDataStrategy',
  'HydratedRouter',
  'Links',
  'Meta',
  'Scripts',
  'PrefetchPageLinks',
  'UNSAFE_RemixErrorBoundary',
  'UNSAFE_createClientRoutes',
  'UNSAFE_createClientRoutesWithHMRRevalidationOptOut',
  'UNSAFE_getHydrationData',
  'UNSAFE_getPatchRoutesOnNavigationFunction',
  'UNSAFE_useFogOFWarDiscovery',
  'UNSAFE_shouldHydrateRouteLoader',
  'UNSAFE_hydrationRouteProperties',
  'UNSAFE_WithComponentProps',
  'UNSAFE_WithErrorBoundaryProps',
  'UNSAFE_WithHydrateFallbackProps',
  'UNSAFE_withComponentProps',
  'UNSAFE_withErrorBoundaryProps',
  'UNSAFE_withHydrateFallbackProps',
]);

module.exports = { ROUTER_SERVER_AND_FRAMEWORK_EXPORTS };
