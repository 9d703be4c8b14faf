import { act, render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router-dom';
import { baseApi } from '@dash/shell-sdk';
import { ROLE_PERMISSIONS, type DashConfig, type Project, type Registry, type RegistryRemote, type User } from '@dash/contracts';
import { Shell } from '../src/Shell';
import { createShellStore } from '../src/store';

export const user: User = { id: 'u1', email: 'ada@example.com', name: 'Ada Lovelace' };

export const project: Project = {
  id: 1,
  ref: 'abc123',
  name: 'Billing API',
  status: 'ACTIVE_HEALTHY',
  organization_slug: 'acme',
  organization_name: 'Acme Corp',
  role: 'developer',
  inserted_at: '2025-01-01T00:00:00.000Z',
};

export function remote(overrides: Partial<RegistryRemote> = {}): RegistryRemote {
  return {
    name: 'mfe_table_editor',
    version: '1.2.0',
    entry: 'http://127.0.0.1:4101/v/1.2.0/mf-manifest.json',
    contract: 1,
    mount: 'editor',
    title: 'Table Editor',
    ...overrides,
  };
}

export const registry: Registry = {
  schemaVersion: 1,
  remotes: [
    remote(),
    remote({ name: 'mfe_logs', version: '0.9.1', entry: 'http://127.0.0.1:4105/v/0.9.1/mf-manifest.json', mount: 'logs', title: 'Logs' }),
  ],
};

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

type Handler = (request: { method: string; path: string; body: unknown }) => Response | Promise<Response>;

/**
 * Replaces global fetch (the only network edge) with a table of `METHOD /path` handlers. Unknown calls
 * answer 404 and are recorded, so a test sees what was called and with which body.
 */
export function mockFetch(routes: Record<string, Handler | Response | (() => Response)>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const spy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    // `fetch('/registry.json')` is relative; Node's Request needs an absolute URL.
    const request = input instanceof Request ? input : new Request(new URL(String(input), globalThis.location.href), init);
    const url = new URL(request.url, globalThis.location.href);
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
    const call = { method: request.method, path: url.pathname, body: text ? JSON.parse(text) : undefined };
    calls.push(call);
    const handler = routes[`${call.method} ${call.path}`];
    if (!handler) return json(404, { statusCode: 404, error: 'Not Found', message: `No mock for ${call.method} ${call.path}` });
    if (handler instanceof Response) return handler.clone();
    return (handler as Handler)(call);
  });
  return { spy, calls };
}

export const flagsOff: DashConfig['flags'] = { warehouse: false, navigationLayoutV2: false, ongoingIncident: false, columnLevelPrivileges: false };

/** The platform's `/config` reply: hosted, every flag off, unless `overrides` says otherwise. */
export function dashConfig(overrides: Partial<DashConfig> = {}): DashConfig {
  return { mode: 'hosted', flags: flagsOff, ...overrides };
}

/** The happy-path platform API: signed in as `user`, member of `project` as its `role`, hosted, flags off. */
export function signedInApi(extra: Record<string, Handler> = {}) {
  return mockFetch({
    'GET /api/platform/auth/session': () => json(200, { user }),
    'GET /api/platform/projects': () => json(200, { projects: [project] }),
    'GET /api/platform/config': () => json(200, dashConfig()),
    [`GET /api/platform/projects/${project.ref}`]: () => json(200, project),
    [`GET /api/platform/projects/${project.ref}/permissions`]: () => json(200, { role: project.role, permissions: ROLE_PERMISSIONS[project.role] }),
    ...extra,
  });
}

/** Renders the whole shell (store, providers, routes) at `path` with a memory router. */
export function renderShell(path: string, options: { registry?: Registry | null } = {}) {
  const store = createShellStore();
  let router!: ReturnType<typeof createMemoryRouter>;
  const createRouter = (routes: Parameters<typeof createMemoryRouter>[0]) => {
    router = createMemoryRouter(routes, { initialEntries: [path] });
    return router;
  };
  const utils = render(
    <Shell store={store} createRouter={createRouter} registry={options.registry === null ? undefined : (options.registry ?? registry)} />,
  );
  return {
    ...utils,
    store,
    get router() {
      return router;
    },
    location: () => `${router.state.location.pathname}${router.state.location.search}`,
  };
}

/** Drops RTK Query state between tests (its cache lives in each store, its timers do not). */
export async function cleanupApi(store: { dispatch: (action: unknown) => unknown }) {
  await act(async () => {
    store.dispatch(baseApi.util.resetApiState());
  });
}
