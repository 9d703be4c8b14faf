import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { createAction } from '@reduxjs/toolkit';
import { dashConfigRoutes, gatewayPath, platformRoutes, type RouteDef, type RouteReply } from '@dash/contracts';

/** Dispatched when any call answers 401: the shell sends the user to sign-in. */
export const sessionExpired = createAction('session/expired');

// Absolute URLs (the page's origin): requests resolve the same way in the browser and in tests.
const rawBaseQuery = fetchBaseQuery({ baseUrl: globalThis.location?.origin ?? '', credentials: 'same-origin' });

const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  const result = await rawBaseQuery(args, api, extra);
  if (result.error?.status === 401) api.dispatch(sessionExpired());
  return result;
};

/**
 * The one RTK Query API of the page. Remotes add their endpoints with `baseApi.injectEndpoints`, one
 * file per resource, so every area shares one cache and one middleware.
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Session', 'Project', 'Permissions', 'Entities', 'Tables', 'Columns', 'Rows', 'Roles', 'Policies', 'Buckets', 'Logs', 'Schemas', 'Snippets', 'RunningQueries', 'Completions', 'SqlEditorSettings', 'DashConfig', 'Profile', 'AccessTokens', 'MfaFactors', 'Organization', 'OrgMembers', 'Invitations', 'OAuthApps', 'Usage', 'Audit'],
  endpoints: () => ({}),
});

type PathParams = Record<string, string | number>;

/**
 * Builds the request of a contract route: the url through the gateway, the method, the query string and
 * the body. Endpoint files call this; components never build URLs.
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

/** The message of a failed call, as the services send it (`{ message }`), or a fallback. */
export function errorMessage(error: unknown, fallback = 'Unexpected error'): string {
  if (!error || typeof error !== 'object') return fallback;
  const e = error as { data?: unknown; error?: string; status?: unknown; message?: string };
  if (e.data && typeof e.data === 'object' && typeof (e.data as { message?: unknown }).message === 'string') {
    return (e.data as { message: string }).message;
  }
  if (typeof e.error === 'string') return e.error;
  if (typeof e.message === 'string') return e.message;
  return fallback;
}

/** The session and permission endpoints every area relies on. */
export const platformApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    projectPermissions: build.query<
      RouteReply<typeof platformRoutes.projectPermissions>,
      { ref: string }
    >({
      query: ({ ref }) => routeRequest(platformRoutes.projectPermissions, { params: { ref } }),
      providesTags: (_r, _e, { ref }) => [{ type: 'Permissions', id: ref }],
    }),
    dashConfig: build.query<RouteReply<typeof dashConfigRoutes.dashConfig>, { project?: string; organization?: string }>({
      query: (query) => routeRequest(dashConfigRoutes.dashConfig, { query }),
      providesTags: ['DashConfig'],
    }),
  }),
});
