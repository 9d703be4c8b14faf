import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, permissionsAnswer, renderArea, type FetchMock, type MockAnswer } from '@dash/shell-sdk/testing';
import type { OrgRole } from '@dash/contracts';
import { ApiDocsRoutes } from '../src/api-docs/ApiDocsRoutes';

// GraphiQL's role picker: which key or user token the page's fetcher sends to the project's GraphQL endpoint.
jest.mock('../src/api-docs/GraphiqlEditor', () => jest.requireActual('./graphiql-editor-stub'));

const KEYS = { storageUrl: 'http://localhost/p/default/storage/v1', anon: 'anon-key', service_role: 'service-key' };
const ALICE = { id: '6f1d2c3b-4a59-4e7f-9a8b-0c1d2e3f4a5b', email: 'alice@example.com' };
const user = (u: { id: string; email: string }) => ({
  ...u,
  aud: 'authenticated',
  role: 'authenticated',
  phone: null,
  email_confirmed_at: null,
  last_sign_in_at: null,
  banned_until: null,
  is_anonymous: false,
  raw_app_meta_data: {},
  raw_user_meta_data: {},
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

const GRAPHQL = 'POST /p/default/graphql/v1';
const MINT = 'POST /api/platform/projects/default/data-api/user-token';

function open(role: OrgRole, minted: MockAnswer = { body: { accessToken: 'alice-token', expiresAt: new Date(Date.now() + 3_600_000).toISOString() } }): FetchMock {
  const fetchMock = mockFetch({
    ...permissionsAnswer('default', role),
    'GET /api/platform/projects/default/api-keys': { body: KEYS },
    'GET /api/pg-meta/default/auth/users': { body: { users: [user(ALICE), user({ id: '0b7a9a5e-8d1c-4b1e-9f3e-2a6c5d4e3f21', email: 'bob@example.com' })], total: 2 } },
    [MINT]: minted,
    [GRAPHQL]: { body: { data: { allTodos: { nodes: [{ title: 'one' }] } } } },
  });
  renderArea(ApiDocsRoutes, { mount: 'api', url: '/project/default/api/graphiql' });
  return fetchMock;
}

const graphqlCalls = (fetchMock: FetchMock) => fetchMock.calls.filter((c) => `${c.method} ${new URL(c.url).pathname}` === GRAPHQL);
const headersOf = (request: Request) => ({ apikey: request.headers.get('apikey'), authorization: request.headers.get('authorization') });

async function run(fetchMock: FetchMock): Promise<Request> {
  const before = graphqlCalls(fetchMock).length;
  fireEvent.click(await screen.findByRole('button', { name: 'Run query' }));
  await waitFor(() => expect(graphqlCalls(fetchMock).length).toBe(before + 1));
  return graphqlCalls(fetchMock)[before]!;
}

describe('GraphiqlPage', () => {
  it('runs as anon with the anon key, then as service_role with its key', async () => {
    const fetchMock = open('owner');
    expect(await screen.findByText(/Queries run as anon/)).toBeTruthy();
    const anon = await run(fetchMock);
    expect(headersOf(anon)).toEqual({ apikey: 'anon-key', authorization: 'Bearer anon-key' });
    expect(await anon.clone().json()).toEqual({ query: '{ allTodos { nodes { title } } }' });
    await waitFor(() => expect(screen.getByLabelText('Reply').textContent).toContain('"title":"one"'));

    fireEvent.click(screen.getByRole('radio', { name: 'service_role' }));
    expect(screen.getByText(/Queries run as service_role/)).toBeTruthy();
    expect(headersOf(await run(fetchMock))).toEqual({ apikey: 'service-key', authorization: 'Bearer service-key' });

    // Headers typed in GraphiQL's Headers tab are sent too, and win.
    fireEvent.change(screen.getByLabelText('Headers'), { target: { value: '{"Authorization":"Bearer typed","x-client-info":"graphiql"}' } });
    const typed = await run(fetchMock);
    expect({ ...headersOf(typed), client: typed.headers.get('x-client-info') }).toEqual({ apikey: 'service-key', authorization: 'Bearer typed', client: 'graphiql' });
  });

  it('runs as a chosen user with a token minted for them once, sent with the anon key', async () => {
    const fetchMock = open('developer');
    fireEvent.click(await screen.findByRole('radio', { name: 'A user' }));
    // No user chosen yet: nothing is sent.
    fireEvent.click(await screen.findByRole('button', { name: 'Run query' }));
    await waitFor(() => expect(screen.getByLabelText('Reply').textContent).toBe('error: Choose the user to run queries as'));
    expect(graphqlCalls(fetchMock)).toHaveLength(0);

    const select = await screen.findByRole('combobox', { name: 'User' });
    await screen.findByRole('option', { name: 'alice@example.com' });
    fireEvent.change(select, { target: { value: ALICE.id } });
    expect(screen.getByText('Queries run as authenticated as alice@example.com')).toBeTruthy();

    expect(headersOf(await run(fetchMock))).toEqual({ apikey: 'anon-key', authorization: 'Bearer alice-token' });
    expect(await fetchMock.bodiesOf(MINT)).toEqual([{ userId: ALICE.id }]);
    // The token is kept for the next runs (it is valid for an hour).
    expect(headersOf(await run(fetchMock))).toEqual({ apikey: 'anon-key', authorization: 'Bearer alice-token' });
    expect(await fetchMock.bodiesOf(MINT)).toHaveLength(1);
  });

  it('shows why a user token could not be had, and sends nothing', async () => {
    const fetchMock = open('owner', { status: 403, body: { statusCode: 403, error: 'Forbidden', message: 'You do not have permission' } });
    fireEvent.click(await screen.findByRole('radio', { name: 'A user' }));
    await screen.findByRole('option', { name: 'alice@example.com' });
    fireEvent.change(screen.getByRole('combobox', { name: 'User' }), { target: { value: ALICE.id } });
    fireEvent.click(screen.getByRole('button', { name: 'Run query' }));
    await waitFor(() => expect(screen.getByLabelText('Reply').textContent).toBe('error: Could not get a token for the user: You do not have permission'));
    expect(graphqlCalls(fetchMock)).toHaveLength(0);
  });

  it('tells a member who cannot read the keys that queries without a key are refused, and sends none', async () => {
    const fetchMock = open('read_only');
    expect(await screen.findByText(/the endpoint refuses every query \(401\)/)).toBeTruthy();
    expect((screen.getByRole('radio', { name: 'service_role' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('radio', { name: 'A user' }) as HTMLInputElement).disabled).toBe(true);
    expect(headersOf(await run(fetchMock))).toEqual({ apikey: null, authorization: null });
    expect(fetchMock.calls.some((c) => new URL(c.url).pathname.endsWith('/api-keys'))).toBe(false);
  });
});
