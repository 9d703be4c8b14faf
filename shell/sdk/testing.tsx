// Test helpers for remotes and the shell: render an area inside the real store and router, with
// `fetch` replaced by canned answers (the network edge). Not part of the sdk's runtime exports.
import { act, render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { ComponentType, ReactElement } from 'react';
import type { OrgRole, PgRole } from '@dash/contracts';
import { ROLE_PERMISSIONS } from '@dash/contracts';
import { createStore } from './src/store';
import { ConfirmProvider } from './src/confirm';
import { Toaster } from './src/ui/Toaster';

export type MockAnswer = { status?: number; body: unknown } | ((request: Request) => { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>);

export interface FetchMock {
  calls: Request[];
  /** Bodies of the requests to `METHOD /path`, parsed as JSON. */
  bodiesOf(key: string): Promise<unknown[]>;
}

/**
 * Replaces `fetch` with answers keyed by `METHOD /path` (no query string). An unknown request answers
 * 404 so a test notices a call it did not expect.
 */
export function mockFetch(answers: Record<string, MockAnswer>): FetchMock {
  const calls: Request[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    calls.push(request.clone());
    const url = new URL(request.url);
    const answer = answers[`${request.method} ${url.pathname}`];
    const result = typeof answer === 'function' ? await answer(request) : answer;
    if (!result) {
      return new Response(JSON.stringify({ statusCode: 404, error: 'Not Found', message: `No mock for ${request.method} ${url.pathname}` }), {
        status: 404,
        headers: { 'content-type': 'application/json' },
      });
    }
    return new Response(JSON.stringify(result.body), { status: result.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return {
    calls,
    bodiesOf: async (key) => {
      const matching = calls.filter((c) => `${c.method} ${new URL(c.url).pathname}` === key);
      return Promise.all(matching.map(async (c) => JSON.parse(await c.clone().text()) as unknown));
    },
  };
}

/** The platform's permissions answer for a role, for `mockFetch`. */
export function permissionsAnswer(ref: string, role: OrgRole): Record<string, MockAnswer> {
  return { [`GET /api/platform/projects/${ref}/permissions`]: { body: { role, permissions: ROLE_PERMISSIONS[role] } } };
}

/**
 * Renders a remote's routes component under `/project/:ref/<mount>/*`, as the shell mounts it, at `url`.
 */
export function renderArea(Routes_: ComponentType, options: { mount: string; url: string }): ReturnType<typeof render> & { store: ReturnType<typeof createStore> } {
  const store = createStore();
  const ui: ReactElement = (
    <Provider store={store}>
      <ConfirmProvider>
        <MemoryRouter initialEntries={[options.url]}>
          <Routes>
            <Route path={`/project/:ref/${options.mount}/*`} element={<Routes_ />} />
          </Routes>
        </MemoryRouter>
        <Toaster />
      </ConfirmProvider>
    </Provider>
  );
  return { ...render(ui), store };
}

/**
 * A database role as pg-meta's `/roles` lists it: an ordinary role (no login, no superuser, inherits)
 * unless `extra` says otherwise. One builder for every remote's role fixtures.
 */
export function pgRole(id: number, name: string, extra: Partial<PgRole> = {}): PgRole {
  return {
    id,
    name,
    is_superuser: false,
    can_create_db: false,
    can_create_role: false,
    inherit_role: true,
    can_login: false,
    is_replication_role: false,
    can_bypass_rls: false,
    active_connections: 0,
    connection_limit: -1,
    password: '********',
    valid_until: null,
    config: null,
    ...extra,
  };
}

/** The roles a new project database is bootstrapped with, as `/roles` lists them (ids as pg-meta's fixtures use). */
export function bootstrapRoles(): PgRole[] {
  return [
    pgRole(10, 'postgres', { is_superuser: true, can_login: true, can_bypass_rls: true }),
    pgRole(16384, 'anon'),
    pgRole(16385, 'authenticated'),
    pgRole(16386, 'service_role', { can_bypass_rls: true }),
    pgRole(16387, 'authenticator', { can_login: true }),
    pgRole(16388, 'dashboard_user', { can_create_db: true, can_create_role: true }),
  ];
}

/**
 * The browser's XMLHttpRequest (uploads with progress), replaced at the network edge: records each
 * request and answers it on demand. `installFakeXhr()` puts it in place for the tests of a file.
 */
export class FakeXhr {
  static requests: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  statusText = '';
  responseText = '';
  upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  aborted = false;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.requests.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  /** A query parameter of the request's URL. */
  searchParam(name: string): string | null {
    return new URL(this.url).searchParams.get(name);
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ loaded, total, lengthComputable: true }));
  }
  async respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    await act(async () => this.onload?.());
  }
}

export function installFakeXhr(): void {
  const realXhr = globalThis.XMLHttpRequest;
  beforeEach(() => {
    FakeXhr.requests = [];
    globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
  });
  afterEach(() => {
    globalThis.XMLHttpRequest = realXhr;
  });
}
