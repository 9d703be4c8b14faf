import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, permissionsAnswer, renderArea, type FetchMock, type MockAnswer } from '@dash/shell-sdk/testing';
import type { ApiDocs, OrgRole } from '@dash/contracts';
import { ApiDocsRoutes } from '../src/api-docs/ApiDocsRoutes';

// The API docs page's "Run": a table's or a stable function's read sent to the project's data API with
// the anon key (no dashboard cookie), its status and JSON shown under the example; writes have no Run.

jest.mock('../src/api-docs/GraphiqlEditor', () => jest.requireActual('./graphiql-editor-stub'));

const PROJECT_URL = 'http://localhost/p/default';
const DOCS: ApiDocs = {
  schema: 'public',
  tables: [
    {
      name: 'items',
      kind: 'table',
      comment: null,
      columns: [
        { name: 'id', format: 'integer', required: true, nullable: false, default_value: null, comment: null, primary_key: true },
        { name: 'title', format: 'text', required: true, nullable: false, default_value: null, comment: null, primary_key: false },
      ],
    },
  ],
  functions: [
    { name: 'greet', arguments: [{ name: 'name', format: 'text', has_default: false }], return_type: 'text', returns_set: false, volatility: 'stable', comment: null },
    { name: 'bump', arguments: [{ name: 'n', format: 'integer', has_default: false }], return_type: 'integer', returns_set: false, volatility: 'volatile', comment: null },
  ],
};
const ROWS = [{ id: 1, title: 'first' }];

function open(url: string, answers: Record<string, MockAnswer> = {}, role: OrgRole = 'owner'): FetchMock {
  const fetchMock = mockFetch({
    ...permissionsAnswer('default', role),
    'GET /api/platform/projects/default': {
      body: { id: 1, ref: 'default', name: 'Default', status: 'ACTIVE_HEALTHY', organization_slug: 'demo', organization_name: 'Demo', role, inserted_at: '2026-01-01T00:00:00.000Z' },
    },
    'GET /api/pg-meta/default/api-docs': { body: DOCS },
    'GET /api/platform/projects/default/settings/api': { body: { projectUrl: PROJECT_URL, jwtSecretRotatedAt: null } },
    'GET /api/platform/projects/default/api-keys': { body: { storageUrl: `${PROJECT_URL}/storage/v1`, anon: 'anon-key', service_role: 'service-key' } },
    ...answers,
  });
  renderArea(ApiDocsRoutes, { mount: 'api', url });
  return fetchMock;
}

const example = (title: string) => screen.getByRole('figure', { name: title });
const callsTo = (fetchMock: FetchMock, path: string) => fetchMock.calls.filter((c) => new URL(c.url).pathname === path);

describe('ApiDocsPage Run', () => {
  it("runs a table's read with the anon key and shows the status and rows", async () => {
    const fetchMock = open('/project/default/api?resource=items', { 'GET /p/default/rest/v1/items': { body: ROWS } });
    const read = await screen.findByRole('figure', { name: 'Read all rows' });
    fireEvent.click(within(read).getByRole('button', { name: 'Run' }));
    const answer = await within(read).findByRole('region', { name: 'Answer of read all rows' });
    expect(within(answer).getByText('HTTP 200')).toBeTruthy();
    expect(JSON.parse(answer.querySelector('pre')!.textContent!)).toEqual(ROWS);

    const [request] = callsTo(fetchMock, '/p/default/rest/v1/items');
    expect(request!.url).toBe(`${PROJECT_URL}/rest/v1/items?select=*`);
    expect({ apikey: request!.headers.get('apikey'), authorization: request!.headers.get('authorization'), credentials: request!.credentials }).toEqual({
      apikey: 'anon-key',
      authorization: 'Bearer anon-key',
      credentials: 'omit',
    });
    // Only reads run: the writes have no Run button.
    for (const title of ['Insert a row', 'Update matching rows', 'Delete matching rows']) expect(within(example(title)).queryByRole('button', { name: 'Run' })).toBeNull();
  });

  it("shows the API's error answer with its status, and runs again on a second press", async () => {
    let calls = 0;
    const fetchMock = open('/project/default/api?resource=items', {
      'GET /p/default/rest/v1/items': () => (++calls === 1 ? { status: 401, body: { code: 'PGRST301', message: 'JWT invalid' } } : { body: ROWS }),
    });
    const filter = await screen.findByRole('figure', { name: 'Filter rows' });
    fireEvent.click(within(filter).getByRole('button', { name: 'Run' }));
    const answer = await within(filter).findByRole('region', { name: 'Answer of filter rows' });
    expect(within(answer).getByText('HTTP 401')).toBeTruthy();
    expect(answer.textContent).toContain('"message": "JWT invalid"');
    expect(callsTo(fetchMock, '/p/default/rest/v1/items')[0]!.url).toBe(`${PROJECT_URL}/rest/v1/items?id=eq.1&select=*`);
    // A 401 of the project's API is an answer, not the end of the dashboard session: the page stays.
    expect(screen.getByRole('heading', { level: 1, name: 'API Docs' })).toBeTruthy();

    fireEvent.click(within(filter).getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(within(filter).getByText('HTTP 200')).toBeTruthy());
    expect(callsTo(fetchMock, '/p/default/rest/v1/items')).toHaveLength(2);
  });

  it('runs a stable function with GET and its arguments; a volatile one has no Run', async () => {
    const fetchMock = open('/project/default/api?rpc=greet', { 'GET /p/default/rest/v1/rpc/greet': { body: 'hello' } });
    const invoke = await screen.findByRole('figure', { name: 'Invoke' });
    fireEvent.click(within(invoke).getByRole('button', { name: 'Run' }));
    const answer = await within(invoke).findByRole('region', { name: 'Answer of invoke' });
    expect(answer.querySelector('pre')!.textContent).toBe('"hello"');
    expect(callsTo(fetchMock, '/p/default/rest/v1/rpc/greet').map((c) => [c.method, c.url])).toEqual([['GET', `${PROJECT_URL}/rest/v1/rpc/greet?name=someValue`]]);

    fireEvent.click(screen.getByRole('link', { name: 'bump' }));
    const bump = await screen.findByRole('region', { name: 'bump' });
    expect(within(bump).getByRole('figure', { name: 'Invoke' })).toBeTruthy();
    expect(within(bump).queryByRole('button', { name: 'Run' })).toBeNull();
  });

  it('shows why a run got no answer at all', async () => {
    open('/project/default/api?resource=items', {
      'GET /p/default/rest/v1/items': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const read = await screen.findByRole('figure', { name: 'Read all rows' });
    fireEvent.click(within(read).getByRole('button', { name: 'Run' }));
    expect((await within(read).findByRole('alert')).textContent).toBe('Failed to run the example: TypeError: Failed to fetch');
  });

  it('cannot run without the anon key (a role that may not read the keys)', async () => {
    const fetchMock = open('/project/default/api?resource=items', {}, 'read_only');
    const read = await screen.findByRole('figure', { name: 'Read all rows' });
    const run = within(read).getByRole('button', { name: 'Run' }) as HTMLButtonElement;
    expect(run.disabled).toBe(true);
    expect(callsTo(fetchMock, '/api/platform/projects/default/api-keys')).toHaveLength(0);
  });
});
