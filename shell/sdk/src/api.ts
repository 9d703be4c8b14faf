import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import { createAction } from '@reduxjs/toolkit';
import { dashConfigRoutes, platformRoutes } from '@dash/contracts';
import { routeQuery, type ApiBaseQuery } from './routes';

/** Dispatched when any call answers 401: the shell sends the user to sign-in. */
export const sessionExpired = createAction('session/expired');

/**
 * Dispatched when a call gets no answer, or a 502/503/504: the services may be unreachable (restarting,
 * their database down). The shell then checks `/health`, shows its banner while it is not ready, and
 * refetches every query once it is (the api refetches on reconnect).
 */
export const servicesUnreachable = createAction('services/unreachable');

const UNREACHABLE_STATUSES: ReadonlySet<unknown> = new Set(['FETCH_ERROR', 'TIMEOUT_ERROR', 502, 503, 504]);

// Absolute URLs (the page's origin): requests resolve the same way in the browser and in tests.
const rawBaseQuery = fetchBaseQuery({ baseUrl: globalThis.location?.origin ?? '', credentials: 'same-origin' });

const baseQuery: ApiBaseQuery = async (args, api, extra) => {
  const result = await rawBaseQuery(args, api, extra);
  if (result.error?.status === 401) api.dispatch(sessionExpired());
  if (result.error && UNREACHABLE_STATUSES.has(result.error.status)) api.dispatch(servicesUnreachable());
  return result;
};

/**
 * The one RTK Query API of the page, so every area shares one cache and one middleware. Its tag types are
 * the sdk's own: each area adds its own on injection, one file per resource —
 * `baseApi.enhanceEndpoints({ addTagTypes }).injectEndpoints({ endpoints, overrideExisting: 'throw' })`
 * (endpoint names: see `routes.ts`).
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Permissions', 'DashConfig'],
  refetchOnReconnect: true,
  endpoints: () => ({}),
});

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
    projectPermissions: routeQuery(build, platformRoutes.projectPermissions, { providesTags: (_r, _e, { ref }) => [{ type: 'Permissions', id: ref }] }),
    dashConfig: routeQuery(build, dashConfigRoutes.dashConfig, { providesTags: ['DashConfig'] }),
  }),
  overrideExisting: 'throw',
});
